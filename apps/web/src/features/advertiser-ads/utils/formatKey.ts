/** The catalogue key of an ad format's name; an unknown format reads as format 4. */
export function formatKey(formatId: number) {
  return `advertiserAds.formats.${[1, 2, 3, 4, 5].includes(formatId) ? formatId : 4}` as `advertiserAds.formats.${1 | 2 | 3 | 4 | 5}`;
}
