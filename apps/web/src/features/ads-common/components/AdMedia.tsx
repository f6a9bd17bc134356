import { Anchor, Image } from '@mantine/core';

export interface AdMediaProps {
  type: 'image' | 'video';
  image: string | null;
  mp4: string | null;
  poster: string | null;
  /**
   * For a thumbnail: the ad's small preview (`preview` in the answers), shown instead of the image or the video's
   * poster; the full picture while there is none. A large view leaves it out.
   */
  preview?: string | null;
  /** Where a click goes (the ad's target); no link when null. */
  href?: string | null;
  alt: string;
  maxHeight?: number;
}

/** An ad's picture: the image, or the mp4 playing muted in a loop with its poster. */
export function AdMedia({ type, image, mp4, poster, preview, href, alt, maxHeight = 240 }: AdMediaProps) {
  const media =
    type === 'video' && mp4 ? (
      <video
        src={mp4}
        poster={preview ?? poster ?? undefined}
        autoPlay
        muted
        loop
        playsInline
        aria-label={alt}
        style={{ maxWidth: '100%', maxHeight, display: 'block' }}
      />
    ) : image ? (
      <Image src={preview ?? image} alt={alt} fit="contain" mah={maxHeight} w="auto" maw="100%" />
    ) : null;
  if (!media || !href) return media;
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" display="inline-block">
      {media}
    </Anchor>
  );
}
