/** `context-lab --help` (PK-1): every command, flag and environment variable. */
export const START_HELP = `Usage: context-lab [--port N] [--open]
       context-lab record [--label NAME] [--port N] -- <command> [arguments…]
       context-lab stop

Starts Context Lab, the playground and inspector for the context LLM agents
send to their models, from this package: the database is migrated, the app
listens on 127.0.0.1 and its URL is printed. Ctrl+C stops it.

Commands
  (none)            start the app in the foreground
  record -- <cmd>   run an agent command with its OpenAI and Anthropic clients
                    pointed at the app's recording proxy (context-lab record --help)
  stop              stop the app \`record\` started in the background

Options
  -p, --port N      listen on port N (default 3000, or the next free one up to 3019)
  --open            open the app in the default browser once it answers
  -h, --help        this help (context-lab record --help for record's)
  -v, --version     the version

Environment
  PORT                           the port, when --port is not given
  HOST                           the address to listen on (default 127.0.0.1); any
                                 other than loopback needs CONTEXT_LAB_TOKEN
  CONTEXT_LAB_HOME               the data folder (default ~/.context-lab): the SQLite
                                 database context-lab.db, upstream.json, app.log
  DATABASE_URL                   another database: file:/path/to.db for SQLite, or
                                 postgresql://user:password@host:5432/db
  CONTEXT_LAB_TOKEN              an access token (16+ characters) every page, API
                                 call and agent must present
  CONTEXT_LAB_ALLOWED_HOSTS      host names besides localhost the app answers to
  CONTEXT_LAB_UPSTREAM_BASE_URL  where recorded OpenAI calls go (https://api.openai.com/v1)
  CONTEXT_LAB_UPSTREAM_API_KEY   the key sent there
  CONTEXT_LAB_UPSTREAM_TIMEOUT_MS  longest wait for the upstream (default 600000)
  CONTEXT_LAB_ANTHROPIC_BASE_URL where recorded Anthropic calls go (https://api.anthropic.com)
  CONTEXT_LAB_ANTHROPIC_API_KEY  the key sent there
  CONTEXT_LAB_UPSTREAM_SETTINGS_FILE  where the settings page saves the upstream
                                 (default $CONTEXT_LAB_HOME/upstream.json)

Install scripts: better-sqlite3 builds a native addon when it is installed. If npm
skipped its install script, run npx --allow-scripts=better-sqlite3 context-lab
(or npm config set allow-scripts=better-sqlite3 --location=user).
`;

export const RECORD_HELP = `Usage: context-lab record [--label NAME] [--port N] [--] <command> [arguments…]

Runs <command> with its model clients pointed at Context Lab's recording proxy,
prints the conversation's URL when the first call arrives and a summary (calls,
tokens, cost, cache hits) when the command exits, and exits with its exit code.
Uses the app on the port (default 3000, or the next ones up to 3019); when none
runs, starts one in the background that keeps running for you to look at the
recording (context-lab stop ends it; its log is $CONTEXT_LAB_HOME/app.log).

Options
  --label NAME      the conversation's label (default: the command's name, e.g.
                    "agent" for node agent.mjs)
  -p, --port N      the app's port (PORT otherwise)
  -h, --help        this help

The command runs with
  OPENAI_BASE_URL, OPENAI_API_BASE  http://127.0.0.1:<port>/api/v1
  OPENAI_API_KEY                    ctxlab-<label>
  ANTHROPIC_BASE_URL                http://127.0.0.1:<port>/api
  ANTHROPIC_API_KEY                 ctxlab-<label>
  ANTHROPIC_AUTH_TOKEN              ctxlab-<label>, when it was set
  (ctxlab-<label>~<token> with CONTEXT_LAB_TOKEN set)

Your real keys stay the upstream's: OPENAI_API_KEY and OPENAI_BASE_URL (default
https://api.openai.com/v1), ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL (default
https://api.anthropic.com) become the app's upstream when record starts it, unless
CONTEXT_LAB_UPSTREAM_* or CONTEXT_LAB_ANTHROPIC_* say otherwise. An app already
running keeps its upstream; one with none configured is given yours.

Environment: as for context-lab (context-lab --help).
`;
