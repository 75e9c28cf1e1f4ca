import { httpScenario } from './http-scenario.ts';

export const connectionsReplayScenario = httpScenario({
  id: 'connections-replay',
  title: 'POST /connections (replays)',
  measures:
    'The same key and body every time: validation, fingerprint, and the stored outcome replayed with meta.replayed.',
  request: 'replay',
  async prepare(sim, spec) {
    const res = await fetch(`${sim.baseUrl}${spec.path}`, {
      method: spec.method,
      headers: spec.headers!,
      body: spec.body!,
    });
    if (res.status !== 200)
      throw new Error(`the first call of the replay key answered ${res.status}: ${await res.text()}`);
  },
});
