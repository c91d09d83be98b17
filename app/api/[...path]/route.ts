import { HttpError, errorResponse } from "@/lib/api/errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Any /api path no route serves: a JSON 404 in the API's error shape, not Next's HTML page, whatever the method.
async function notFound(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  return errorResponse(new HttpError(404, "not_found", `${request.method} ${pathname}: there is no such API route`, { details: { path: pathname } }));
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
