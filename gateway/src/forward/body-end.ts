/** An answer whose declared length is at most this is over once its headers are here: the rest follows at once. */
const SHORT_BODY = 1 << 20;

/**
 * `response`, with `end` called once, when its body is over: read to its end, given up by the
 * caller, or broken off upstream. A body-less answer, or one with a short declared length, passes
 * as it came (natively) and is over now; any other body (a stream) passes through a reader that
 * pulls one chunk at a time as the caller reads, so a slow reader is still paced.
 */
export function whenBodyEnds(response: Response, end: () => void): Response {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (!response.body || declared <= SHORT_BODY) {
    end();
    return response;
  }
  const reader = response.body.getReader();
  let over = false;
  const finish = () => {
    if (over) return;
    over = true;
    end();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const read = await reader.read();
          if (read.done) {
            finish();
            controller.close();
          } else controller.enqueue(read.value);
        } catch (error) {
          finish();
          controller.error(error);
        }
      },
      cancel(reason) {
        finish();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
