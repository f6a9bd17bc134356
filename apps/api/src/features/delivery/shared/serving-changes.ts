import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A change that affects serving, announced to every instance (Redis pub/sub): each reloads its serving index at
 * once, as the instance that made the change does (ServingIndex.servingChanged). An announcement lost while Redis
 * is away is made up for by the reload every minute.
 */
export class ServingChanges {
  private readonly instance = randomUUID();

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly channel: string,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * Listens to other instances' announcements. Not awaited: with Redis away the subscription is made once it is
   * back (the start of the server does not wait for it), and ioredis makes it again after each reconnection.
   */
  start(onChange: () => void): void {
    this.subscriber.on('message', (channel: string, from: string) => {
      if (channel === this.channel && from !== this.instance) onChange();
    });
    this.subscriber.subscribe(this.channel).catch(this.onError);
  }

  announce(): void {
    this.publisher.publish(this.channel, this.instance).catch(this.onError);
  }

  stop(): void {
    this.subscriber.disconnect();
  }
}
