import { describe, expect, it } from 'vitest';
import type { DeliveryEvent } from './events.ts';
import { GroupCommitRecorder } from './recorder.ts';

/** A heartbeat event: the smallest event, enough to tell batches apart by host. */
const event = (host: string): DeliveryEvent =>
  ({ t: 'heartbeat', publisherId: 1, host, installs: false, at: new Date() }) satisfies DeliveryEvent;
const hosts = (events: DeliveryEvent[]) => events.map((one) => (one as { host: string }).host);

/** A database stand-in whose writes finish only when the test says so, in any order it likes. */
function controlledWrites() {
  const started: Array<{ hosts: string[]; finish: () => void; fail: (error: Error) => void }> = [];
  let active = 0;
  let mostActive = 0;
  const write = (events: DeliveryEvent[]) =>
    new Promise<void>((resolve, reject) => {
      active += 1;
      mostActive = Math.max(mostActive, active);
      const done = () => (active -= 1);
      started.push({
        hosts: hosts(events),
        finish: () => (done(), resolve()),
        fail: (error) => (done(), reject(error)),
      });
    });
  return { write, started, mostActive: () => mostActive };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** An error as PostgreSQL answers a statement it refuses (SQLSTATE 22021: invalid byte sequence). */
const refused = (message: string) => Object.assign(new Error(message), { code: '22021' });

describe('GroupCommitRecorder', () => {
  it('joins the events of one turn into one batch and answers each only once its batch is written', async () => {
    const writes = controlledWrites();
    const recorder = new GroupCommitRecorder(writes.write);
    const answered: string[] = [];
    void recorder.record([event('a')]).then(() => answered.push('a'));
    void recorder.record([event('b'), event('c')]).then(() => answered.push('b'));
    await turn();
    expect(writes.started.map((batch) => batch.hosts)).toEqual([['a', 'b', 'c']]);
    expect(answered).toEqual([]);
    writes.started[0]!.finish();
    await turn();
    expect(answered).toEqual(['a', 'b']);
    expect(recorder.batches).toBe(1);
    expect(recorder.eventsWritten).toBe(3);
  });

  it('with one in flight, the next batch waits for the first to be durable', async () => {
    const writes = controlledWrites();
    const recorder = new GroupCommitRecorder(writes.write, undefined, 1);
    void recorder.record([event('a')]);
    await turn();
    void recorder.record([event('b')]);
    await turn();
    expect(writes.started).toHaveLength(1);
    writes.started[0]!.finish();
    await turn();
    expect(writes.started.map((batch) => batch.hosts)).toEqual([['a'], ['b']]);
    expect(writes.mostActive()).toBe(1);
  });

  it('with two in flight, hands the next batch over at once, never a third, and answers each batch on its own', async () => {
    const writes = controlledWrites();
    const recorder = new GroupCommitRecorder(writes.write, undefined, 2);
    const answered: string[] = [];
    for (const host of ['a', 'b', 'c']) {
      void recorder.record([event(host)]).then(() => answered.push(host));
      await turn();
    }
    expect(writes.started.map((batch) => batch.hosts)).toEqual([['a'], ['b']]);
    writes.started[0]!.finish();
    await turn();
    expect(answered).toEqual(['a']);
    expect(writes.started.map((batch) => batch.hosts)).toEqual([['a'], ['b'], ['c']]);
    writes.started[2]!.finish();
    writes.started[1]!.finish();
    await turn();
    expect(answered).toEqual(['a', 'c', 'b']);
    expect(writes.mostActive()).toBe(2);
  });

  it('runs an exclusive job only with no batch in flight, and holds later batches until it ends', async () => {
    const writes = controlledWrites();
    const recorder = new GroupCommitRecorder(writes.write, undefined, 2);
    const steps: string[] = [];
    void recorder.record([event('a')]);
    await turn();
    let endJob!: () => void;
    void recorder.exclusive(
      () =>
        new Promise<void>((resolve) => {
          steps.push(`job starts with ${writes.started.length} batch(es) started`);
          endJob = resolve;
        }),
    );
    void recorder.record([event('b')]);
    await turn();
    expect(steps).toEqual([]);
    writes.started[0]!.finish();
    await turn();
    expect(steps).toEqual(['job starts with 1 batch(es) started']);
    expect(writes.started).toHaveLength(1);
    endJob();
    await turn();
    await turn();
    expect(writes.started.map((batch) => batch.hosts)).toEqual([['a'], ['b']]);
  });

  it('a failed batch rejects its own requests only, reports the error, and the next batches go on', async () => {
    const writes = controlledWrites();
    const errors: unknown[] = [];
    const recorder = new GroupCommitRecorder(writes.write, (error) => errors.push(error), 2);
    const first = recorder.record([event('a')]);
    await turn();
    const second = recorder.record([event('b')]);
    await turn();
    writes.started[0]!.fail(new Error('disk full'));
    writes.started[1]!.finish();
    await expect(first).rejects.toThrow('disk full');
    await expect(second).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(recorder.batches).toBe(1);
  });

  it("a batch that fails is written again request by request: one request's bad event loses no other's", async () => {
    const writes = controlledWrites();
    const errors: unknown[] = [];
    const recorder = new GroupCommitRecorder(writes.write, (error) => errors.push(error), 1);
    const good = recorder.record([event('a')]);
    const bad = recorder.record([event('bad')]).then(
      () => 'written',
      (error: Error) => error.message,
    );
    const alsoGood = recorder.record([event('b'), event('c')]);
    await turn();
    expect(writes.started.map((batch) => batch.hosts)).toEqual([['a', 'bad', 'b', 'c']]);
    writes.started[0]!.fail(refused('invalid byte sequence'));
    await turn();
    // Each request alone, in order, one at a time.
    expect(writes.started.map((batch) => batch.hosts)).toEqual([['a', 'bad', 'b', 'c'], ['a']]);
    writes.started[1]!.finish();
    await turn();
    writes.started[2]!.fail(refused('invalid byte sequence'));
    await turn();
    writes.started[3]!.finish();
    await expect(good).resolves.toBeUndefined();
    expect(await bad).toBe('invalid byte sequence');
    await expect(alsoGood).resolves.toBeUndefined();
    expect(writes.started.map((batch) => batch.hosts)).toEqual([['a', 'bad', 'b', 'c'], ['a'], ['bad'], ['b', 'c']]);
    expect(errors).toHaveLength(1);
    expect(recorder.eventsWritten).toBe(3);
  });

  it('a batch whose outcome is unknown (the connection lost) is refused whole, never written twice', async () => {
    const writes = controlledWrites();
    const errors: unknown[] = [];
    const recorder = new GroupCommitRecorder(writes.write, (error) => errors.push(error), 1);
    const outcomes = ['a', 'b'].map((host) =>
      recorder.record([event(host)]).then(
        () => 'written',
        (error: Error) => error.message,
      ),
    );
    await turn();
    // As node-postgres reports a connection ended while the COMMIT was on its way: no SQLSTATE.
    writes.started[0]!.fail(new Error('Connection terminated unexpectedly'));
    expect(await Promise.all(outcomes)).toEqual([
      'Connection terminated unexpectedly',
      'Connection terminated unexpectedly',
    ]);
    // A connection exception (class 08) is no refusal either.
    const third = recorder.record([event('c')]).catch((error: Error) => error.message);
    const fourth = recorder.record([event('d')]).catch((error: Error) => error.message);
    await turn();
    writes.started[1]!.fail(Object.assign(new Error('connection failure'), { code: '08006' }));
    expect(await Promise.all([third, fourth])).toEqual(['connection failure', 'connection failure']);
    // Nor is the server ending the session (a restart: 57P01), which may come after the commit.
    const fifth = recorder.record([event('e')]).catch((error: Error) => error.message);
    const sixth = recorder.record([event('f')]).catch((error: Error) => error.message);
    await turn();
    const shutdown = 'terminating connection due to administrator command';
    writes.started[2]!.fail(Object.assign(new Error(shutdown), { code: '57P01' }));
    expect(await Promise.all([fifth, sixth])).toEqual([shutdown, shutdown]);
    expect(writes.started.map((batch) => batch.hosts)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
    ]);
    expect(errors).toHaveLength(3);
    expect(recorder.eventsWritten).toBe(0);
  });

  it('flush waits for what is queued and in flight; close refuses new events', async () => {
    const writes = controlledWrites();
    const recorder = new GroupCommitRecorder(writes.write, undefined, 2);
    void recorder.record([event('a')]);
    let flushed = false;
    const closing = recorder.close().then(() => (flushed = true));
    await turn();
    expect(flushed).toBe(false);
    await expect(recorder.record([event('late')])).rejects.toThrow(/closed/);
    writes.started[0]!.finish();
    await closing;
    expect(flushed).toBe(true);
    expect(writes.started.map((batch) => batch.hosts)).toEqual([['a']]);
  });

  it('deferred events start no batch of their own: they join the next one, or go alone after their delay', async () => {
    const writes = controlledWrites();
    const recorder = new GroupCommitRecorder(writes.write, undefined, 2, 30);
    let deferredDone = false;
    void recorder.record([event('served')], { deferred: true }).then(() => (deferredDone = true));
    await turn();
    expect(writes.started).toHaveLength(0);
    // A record that someone waits on starts a batch, which takes the deferred events before it, in order.
    void recorder.record([event('view')]);
    await turn();
    expect(writes.started.map((batch) => batch.hosts)).toEqual([['served', 'view']]);
    writes.started[0]!.finish();
    await turn();
    expect(deferredDone).toBe(true);
    // Alone, deferred events are written once their delay is over.
    const startedAt = Date.now();
    void recorder.record([event('alone')], { deferred: true });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(writes.started).toHaveLength(1);
    while (writes.started.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(25);
    expect(writes.started[1]!.hosts).toEqual(['alone']);
  });

  it('flush and close write deferred events at once', async () => {
    const writes = controlledWrites();
    const recorder = new GroupCommitRecorder(writes.write, undefined, 2, 60_000);
    void recorder.record([event('served')], { deferred: true });
    const flushed = recorder.flush();
    await turn();
    expect(writes.started.map((batch) => batch.hosts)).toEqual([['served']]);
    writes.started[0]!.finish();
    await flushed;
    void recorder.record([event('last')], { deferred: true });
    const closing = recorder.close();
    await turn();
    expect(writes.started.map((batch) => batch.hosts)).toEqual([['served'], ['last']]);
    writes.started[1]!.finish();
    await closing;
  });

  it("lets an idle recorder's first event wait a few milliseconds for others, but not while a batch is written, nor once full", async () => {
    const writes = controlledWrites();
    const recorder = new GroupCommitRecorder(writes.write, undefined, 1, 60_000, 30);
    void recorder.record([event('first')]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    void recorder.record([event('second')]);
    expect(writes.started).toHaveLength(0);
    while (writes.started.length < 1) await new Promise((resolve) => setTimeout(resolve, 2));
    // The two events of those milliseconds share one batch.
    expect(writes.started[0]!.hosts).toEqual(['first', 'second']);
    // While it is written the next batch fills, and starts as soon as it is done (no wait added).
    void recorder.record([event('while-writing')]);
    writes.started[0]!.finish();
    await turn();
    await turn();
    expect(writes.started.map((batch) => batch.hosts)).toEqual([['first', 'second'], ['while-writing']]);
    writes.started[1]!.finish();
    await turn();
    // A full queue does not wait.
    const many = Array.from({ length: 64 }, (_, index) => event(`many-${index}`));
    void recorder.record([event('one')]);
    void recorder.record(many);
    await turn();
    expect(writes.started).toHaveLength(3);
    expect(writes.started[2]!.hosts).toHaveLength(65);
    writes.started[2]!.finish();
    // flush writes a lingering event at once.
    void recorder.record([event('flushed')]);
    const flushed = recorder.flush();
    await turn();
    expect(writes.started[3]!.hosts).toEqual(['flushed']);
    writes.started[3]!.finish();
    await flushed;
  });
});
