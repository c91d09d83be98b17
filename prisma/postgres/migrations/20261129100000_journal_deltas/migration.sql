-- A journaled call's request (and the body sent after the pipeline) may be stored as a delta against
-- the same agent's previous call, whose row is still in the journal or has become the Exchange with
-- the same id (PX-C1): a call writes what it adds to the history, not the whole history again.
ALTER TABLE "ProxyCall" ADD COLUMN "requestBaseId" TEXT;
ALTER TABLE "ProxyCall" ADD COLUMN "sentBaseId" TEXT;

-- An exchange's body sent after the pipeline, like its request (D6), may be a delta against the
-- body the exchange `sentBaseId` sent.
ALTER TABLE "Exchange" ADD COLUMN "sentBaseId" TEXT;
