import { HttpError } from "@/lib/api/errors";
import { readJsonBody, route, otherMethods } from "@/lib/api/http";
import { expiredSessionCookie, isAccessToken, sessionCookieOf } from "@/lib/security/access";
import { signInSchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

function configuredToken(): string {
  const token = process.env.CONTEXT_LAB_TOKEN?.trim();
  if (!token) throw new HttpError(404, "not_found", "this Context Lab has no access token (CONTEXT_LAB_TOKEN is not set): there is nothing to sign in to");
  return token;
}

/** Signs a browser in: the token in, an HttpOnly SameSite=Strict cookie holding an HMAC of it out. */
export const POST = route(async (request) => {
  const token = configuredToken();
  const { token: offered } = await readJsonBody(request, signInSchema);
  if (!isAccessToken(offered, token)) throw new HttpError(401, "unauthorized", "that is not this server's access token");
  const secure = new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  return new Response(null, { status: 204, headers: { "set-cookie": sessionCookieOf(token, secure) } });
});

/** Signs the browser out. */
export const DELETE = route(async () => new Response(null, { status: 204, headers: { "set-cookie": expiredSessionCookie() } }));

export const { GET, PUT, PATCH, OPTIONS } = otherMethods("POST", "DELETE");
