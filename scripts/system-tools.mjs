// The programs the product and its tests run besides Node.js, from Debian's packages: found on the machine, or
// installed with apt-get when missing and running as root. Uses only Node's own modules (it runs before npm
// install has finished, in pretest and prestart).
import { spawnSync } from 'node:child_process';
import { existsSync, statfsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** What each tool is, where it may be, and the environment variable that names another binary. */
export const SYSTEM_TOOLS = {
  chromium: {
    debianPackage: 'chromium',
    envVariable: 'CHROMIUM_PATH',
    candidates: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'],
    purpose: 'the end-to-end tests drive the web app in it',
    withoutIt: 'the end-to-end tests cannot run',
  },
  // Debian's ffmpeg is maintained (security updates); the server decodes untrusted uploads with it
  // (apps/api/src/infra/media-probe.ts, which finds it the same way: FFMPEG_PATH, then PATH).
  ffmpeg: {
    debianPackage: 'ffmpeg',
    envVariable: 'FFMPEG_PATH',
    candidates: (process.env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map((dir) => join(dir, 'ffmpeg')),
    purpose: 'the server decodes uploaded images with it and makes video posters',
    withoutIt:
      'the server starts without it, but checks uploaded images by their header only and gives videos no poster',
  },
};

/** Free bytes on the root file system (where apt-get installs). */
function freeBytes() {
  const stats = statfsSync('/');
  return stats.bavail * stats.bsize;
}

/** The tool's binary: its environment variable when set, else the first candidate that exists; null if none. */
export function findSystemTool(name) {
  const tool = SYSTEM_TOOLS[name];
  return process.env[tool.envVariable] ?? tool.candidates.find((path) => existsSync(path)) ?? null;
}

/**
 * Finds the tool, or installs its Debian package with apt-get when running as root. Answers its path, or null
 * after printing what to install by hand.
 */
export function ensureSystemTool(name, prefix) {
  const found = findSystemTool(name);
  if (found) return found;
  const tool = SYSTEM_TOOLS[name];
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt) {
    console.log(`${prefix}: installing ${tool.debianPackage} with apt-get (${tool.purpose})`);
    const freeBefore = freeBytes();
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [
      ['update', '-qq'],
      ['install', '-y', '-qq', '--no-install-recommends', tool.debianPackage],
    ]) {
      if (spawnSync('apt-get', args, { stdio: 'inherit', env }).status !== 0) break;
    }
    const installed = findSystemTool(name);
    if (installed) {
      const megabytes = Math.round((freeBefore - freeBytes()) / 1e6);
      console.log(
        `${prefix}: installed ${tool.debianPackage} (${installed}), ${megabytes} MB of disk with its libraries`,
      );
      return installed;
    }
  }
  console.error(
    `${prefix}: ${name} is missing (${tool.purpose}): ${tool.withoutIt}. Install it (Debian/Ubuntu: sudo apt-get ` +
      `install -y ${tool.debianPackage}) or set ${tool.envVariable} to its binary.`,
  );
  return null;
}
