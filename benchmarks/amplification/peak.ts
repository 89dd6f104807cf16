/**
 * Preloaded into every amplification child (`node --import`): at exit, it writes the process's
 * peak resident memory to the file named by WIREKIT_PEAK_FILE. A child that dies of an exhausted
 * heap never gets there, which is how the runner tells a crash from a refusal.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.WIREKIT_PEAK_FILE;
if (file !== undefined) {
  process.on('exit', () => {
    // maxRSS is in KiB; it includes Node itself (about 45 MiB) and the input file read.
    writeFileSync(file, JSON.stringify({ peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024) }));
  });
}
