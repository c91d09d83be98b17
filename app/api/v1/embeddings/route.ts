import { handleEmbeddings } from "@/lib/proxy";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function POST(request: Request): Promise<Response> {
  return handleEmbeddings(request);
}
