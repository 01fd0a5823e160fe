/**
 * What an exporter remembers of its service across processes (the spool's answered-marker) and says at exit about its spool: where the unsent events are and how to send them now.
 * @module
 */
import { AnsweredMarker } from './answered-marker.js';
import { startCourier } from './courier-launch.js';
import { Reachability } from './reachability.js';
import { flushCommand, markerDirOf } from './spool-location.js';

/** One exporter's {@link Reachability}, made knowing the marker, and the exit's wording about the spool. */
export class ServiceNotes {
  /** Told of every attempt; knows whether the service answered an earlier process. */
  readonly reach: Reachability;
  /** Where the unsent events are and how to send them now, for the exit line; `undefined` without a spool. */
  readonly spoolHint: string | undefined;
  private readonly marker: AnsweredMarker | undefined;
  private readonly markerDir: string | undefined;

  /**
   * With a spool, reads the marker (one `stat`) and writes it at this process's first answer when it was missing.
   * @param spoolDir - the spool's directory; `undefined` when the spool is off.
   * @param courier - whether {@link handOff} starts the spool courier (`spoolCourier`).
   */
  constructor(
    private readonly url: string,
    project: string,
    private readonly spoolDir: string | undefined,
    private readonly courier = true,
  ) {
    if (!spoolDir) {
      this.reach = new Reachability(url, 'dropped (the spool is off: spoolDir false or WEFT_SPOOL_DIR=off)');
      return;
    }
    this.markerDir = markerDirOf(spoolDir, url, project);
    const marker = new AnsweredMarker(this.markerDir, url);
    const known = marker.exists();
    const command = `\`${flushCommand(spoolDir, url, project)}\``;
    this.marker = marker;
    this.reach = new Reachability(url, `kept in the spool ${spoolDir} and sent once it answers (by this process, the next run, or ${command})`, known, known ? undefined : () => void marker.write());
    this.spoolHint = `in the spool ${spoolDir}: send them now with ${command}, or run the app again with the server up`;
  }

  /** Forgets that the service answered an earlier process, unless it answered this one (an exit waited for it in vain: not a restart). */
  forgetServer(): void {
    if (!this.reach.everAnswered) this.marker?.remove();
  }

  /**
   * Hands the spool to the spool courier (`courier-launch.ts`) until `deadlineAt` (epoch ms): for an exit that
   * gave up at once on a service that never answered.
   * @returns the courier's pid, or `undefined` when none sends the spool (no spool, `spoolCourier` off, or no courier here).
   */
  handOff(deadlineAt: number, apiKey: string | undefined): number | undefined {
    if (!this.spoolDir || !this.markerDir || !this.courier) return undefined;
    return startCourier({ dir: this.spoolDir, baseUrl: this.url, apiKey, markerDir: this.markerDir, deadlineAt });
  }
}
