import type { DrainTarget, PlainResponse, StreamSink } from '../../simulator/index.ts';

/**
 * The answer with every chunk of its event stream passed through `edit`, which returns the chunks
 * to write instead (none, one or several). A fresh `edit` state per opened stream comes from
 * `perStream`. Answers without a stream pass unchanged.
 * @example editStream(res, () => (chunk) => [chunk, chunk]) // every chunk twice
 */
export function editStream(res: PlainResponse, perStream: () => (chunk: string) => string[]): PlainResponse {
  const source = res.stream;
  if (!source) return res;
  return {
    ...res,
    stream: {
      open(sink: StreamSink) {
        const edit = perStream();
        return source.open({
          write: (chunk) => edit(chunk).reduce((ok, c) => sink.write(c) && ok, true),
          end: () => sink.end(),
          ...(sink.onDrain ? { onDrain: (target: DrainTarget) => sink.onDrain?.(target) } : {}),
        });
      },
    },
  };
}

const ID_LINE = /^id: (\d+)$/m;

/** The `id:` of an SSE message block, if it has one. */
export const sseIdOf = (chunk: string): number | undefined => {
  const m = ID_LINE.exec(chunk);
  return m ? Number(m[1]) : undefined;
};

/** The block with its `id:` replaced. */
export const withSseId = (chunk: string, id: number) => chunk.replace(ID_LINE, `id: ${id}`);
