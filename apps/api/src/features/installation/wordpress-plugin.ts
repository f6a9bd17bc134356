import { crc32, deflateRawSync } from 'node:zlib';

/**
 * The downloadable WordPress plug-in of the French installation instructions: one PHP file that prints the
 * publisher's line of code in every page's head (`wp_head`), zipped the way WordPress's
 * Extensions > Ajouter > Téléverser expects (a folder holding the plug-in file).
 */
export function wordpressPluginZip(lineOfCode: string, brand: string): Buffer {
  const php = (value: string) => value.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
  const comment = (value: string) => value.replace(/\*\//g, '* /').replace(/[\r\n]+/g, ' ');
  const source = `<?php
/**
 * Plugin Name: Helium Ads
 * Description: Adds the Helium Ads line of code between the head tags of every page (${comment(brand)}).
 * Version: 1.0.0
 * Author: Helium Ads
 */
if (!defined('ABSPATH')) {
    exit;
}
add_action('wp_head', function () {
    echo '${php(lineOfCode)}' . "\\n";
});
`;
  return zip([{ name: 'helium-ads/helium-ads.php', data: Buffer.from(source, 'utf8') }]);
}

/** A minimal zip archive (deflated entries, no extra fields). */
export function zip(files: Array<{ name: string; data: Buffer }>): Buffer {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  // 2026-01-01 00:00 in MS-DOS time: a fixed date keeps the archive reproducible.
  const dosTime = 0;
  const dosDate = ((2026 - 1980) << 9) | (1 << 5) | 1;
  for (const file of files) {
    const name = Buffer.from(file.name, 'utf8');
    const compressed = deflateRawSync(file.data);
    const crc = crc32(file.data);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0800, 6);
    header.writeUInt16LE(8, 8);
    header.writeUInt16LE(dosTime, 10);
    header.writeUInt16LE(dosDate, 12);
    header.writeUInt32LE(crc, 14);
    header.writeUInt32LE(compressed.length, 18);
    header.writeUInt32LE(file.data.length, 22);
    header.writeUInt16LE(name.length, 26);
    header.writeUInt16LE(0, 28);
    local.push(header, name, compressed);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt16LE(dosTime, 12);
    entry.writeUInt16LE(dosDate, 14);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(compressed.length, 20);
    entry.writeUInt32LE(file.data.length, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += header.length + name.length + compressed.length;
  }
  const centralSize = central.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, ...central, end]);
}
