import { Accordion, List, Text } from '@mantine/core';

/** The format help panel, shown in French only (spec 02, section 2.3). */
export function FormatHelp() {
  return (
    <Accordion variant="contained" mb="md">
      <Accordion.Item value="formats">
        <Accordion.Control>Quels formats d'annonce envoyer ?</Accordion.Control>
        <Accordion.Panel>
          <Text size="sm" mb="xs">
            Envoyez une image jpg, jpeg ou png, ou une vidéo mp4, de 10 Mo au plus. Le format de l'annonce est choisi
            d'après ses dimensions :
          </Text>
          <List size="sm" spacing={4}>
            <List.Item>
              vertical : plus haute que large (par exemple 300 × 600) ; jamais affichée sur mobile ;
            </List.Item>
            <List.Item>carré : à peu près aussi haute que large (par exemple 300 × 300 ou 300 × 250) ;</List.Item>
            <List.Item>horizontal : jusqu'à 2,5 fois plus large que haute (par exemple 640 × 360) ;</List.Item>
            <List.Item>horizontal large : une bannière plus large encore (par exemple 970 × 250) ;</List.Item>
            <List.Item>newsletter : une bannière de 480 à 700 pixels de large (par exemple 600 × 200).</List.Item>
          </List>
          <Text size="sm" mt="xs">
            Une image légère (moins de 500 Ko) s'affiche plus vite et obtient plus de vues.
          </Text>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
