// The order before E-PL7, for tests and the bench to compare against: each processor
// runs where it is registered, with look-ahead (E-PL5) still on.
import type { Context } from "../context";
import { ContextProcessor, ProcessorPipeline, type ProcessorRun } from "../pipeline";

/** The same processor, never run on a window's output (`runsOnWindow` false). */
export class InPlace extends ContextProcessor<object> {
  override readonly preservesRounds: boolean;

  constructor(private readonly inner: ContextProcessor<object>) {
    super(inner.event, { name: inner.name });
    this.preservesRounds = inner.preservesRounds;
  }

  override roundsKept(ctx: Context): number | undefined {
    return this.inner.roundsKept(ctx);
  }

  process(ctx: Context, payload: object, run: ProcessorRun) {
    return this.inner.process(ctx, payload, run);
  }
}

/** `pipeline`'s processors on `pre_llm_call`, each run where it is registered. */
export function inRegistrationOrder(pipeline: ProcessorPipeline): ProcessorPipeline {
  const inPlace = new ProcessorPipeline();
  for (const processor of pipeline.listProcessors("pre_llm_call")) inPlace.register(new InPlace(processor));
  return inPlace;
}
