/**
 * The MCP protocol revisions the tool server speaks, and how one message is told apart.
 *
 * Two eras share the endpoint (and the stdio process):
 * - the handshake revisions of the spec (2025-06-18, 2025-03-26, 2024-11-05): a client opens with
 *   `initialize` and the answer names the version; any other version asked for gets 2025-06-18;
 * - the stateless revision 2026-07-28: no handshake, every request carries its version and the
 *   client's capabilities in `params._meta`, `server/discover` says what is served, every result
 *   carries `resultType`, and over HTTP the headers MCP-Protocol-Version, Mcp-Method and Mcp-Name
 *   must agree with the body.
 *
 * Each message is classified on its own (the revision permits both eras on one endpoint or
 * process), from its body first, as the reference SDK does: a request whose `_meta` holds the
 * revision's keys, or that calls `server/discover`, is a 2026-07-28 request; anything else is a
 * handshake-era request, unless an HTTP header names 2026-07-28 for a body that lacks the `_meta`.
 */

export const HANDSHAKE_PROTOCOL_VERSIONS = ['2025-06-18', '2025-03-26', '2024-11-05'] as const;
/** What `initialize` answers when the client asks for a version we do not serve. */
export const LATEST_HANDSHAKE_VERSION = '2025-06-18';
export const STATELESS_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
/** Every version served, newest first: what `server/discover` and an unsupported-version error list. */
export const SERVED_PROTOCOL_VERSIONS: readonly string[] = [...STATELESS_PROTOCOL_VERSIONS, ...HANDSHAKE_PROTOCOL_VERSIONS];

export const META_KEY = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** The revision's own error codes (its reserved range -32020..-32099). */
export const MCP_ERROR = {
  HEADER_MISMATCH: -32020,
  MISSING_REQUIRED_CLIENT_CAPABILITY: -32021,
  UNSUPPORTED_PROTOCOL_VERSION: -32022,
} as const;

const INVALID_PARAMS = -32602;
const METHOD_NOT_FOUND = -32601;

/** The methods 2026-07-28 requests may call here (ping and initialize are gone in that revision). */
export const STATELESS_METHODS = ['server/discover', 'tools/list', 'tools/call'] as const;

/**
 * The request headers the Streamable HTTP transport mirrors from the body, as received (undefined:
 * absent). Null on transports without headers (stdio), where nothing is cross-checked.
 */
export interface McpHeaders {
  protocolVersion?: string;
  method?: string;
  name?: string;
}

export interface ProtocolRefusal {
  /** the HTTP status the revision prescribes (stdio has none and ignores it) */
  status: 400 | 404;
  code: number;
  message: string;
  data?: unknown;
}

export type Classified = { era: 'handshake' } | { era: 'stateless'; version: string } | { era: 'refused'; refusal: ProtocolRefusal };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether a version string belongs to the stateless era (2026-07-28 and later, compared as the reference SDK does). */
export function isStatelessVersion(version: string): boolean {
  return version >= STATELESS_PROTOCOL_VERSIONS[0];
}

function metaOf(params: unknown): Record<string, unknown> | undefined {
  return isObject(params) && isObject(params._meta) ? params._meta : undefined;
}

/** A body that says it is a 2026-07-28 request: the revision's `_meta` keys, or its discovery method. */
export function claimsStatelessRevision(method: unknown, params: unknown): boolean {
  if (method === 'server/discover') return true;
  const meta = metaOf(params);
  return meta !== undefined && (META_KEY.protocolVersion in meta || META_KEY.clientCapabilities in meta);
}

function refused(status: 400 | 404, code: number, message: string, data?: unknown): Classified {
  return { era: 'refused', refusal: data === undefined ? { status, code, message } : { status, code, message, data } };
}

function headerMismatch(message: string, header: string, body: string): Classified {
  return refused(400, MCP_ERROR.HEADER_MISMATCH, `Header mismatch: ${message}`, { header, body });
}

/** What is wrong with a 2026-07-28 request's `_meta`, or null when it holds what the revision requires. */
function envelopeProblem(params: unknown): { key: string; problem: string } | null {
  const meta = metaOf(params);
  if (!meta) return { key: '_meta', problem: 'missing: a 2026-07-28 request carries params._meta with the protocol version and client capabilities' };
  const version = meta[META_KEY.protocolVersion];
  if (version === undefined) return { key: META_KEY.protocolVersion, problem: 'missing' };
  if (typeof version !== 'string' || version === '') return { key: META_KEY.protocolVersion, problem: 'must be a protocol version string such as "2026-07-28"' };
  const caps = meta[META_KEY.clientCapabilities];
  if (caps === undefined) return { key: META_KEY.clientCapabilities, problem: 'missing (send {} for a client with no optional capabilities)' };
  if (!isObject(caps)) return { key: META_KEY.clientCapabilities, problem: 'must be an object' };
  const info = meta[META_KEY.clientInfo];
  if (info !== undefined && !(isObject(info) && typeof info.name === 'string' && typeof info.version === 'string')) {
    return { key: META_KEY.clientInfo, problem: 'must be an object with string name and version' };
  }
  return null;
}

/** The body value `Mcp-Name` mirrors: params.name for tools/call (the only named method served). */
function nameSourceOf(method: string, params: unknown): string | undefined {
  if (method !== 'tools/call' || !isObject(params)) return undefined;
  return typeof params.name === 'string' ? params.name : undefined;
}

/**
 * A header value in the revision's Base64 sentinel form (`=?base64?...?=`) decoded, a plain value
 * as it is; null for a sentinel whose payload is not valid Base64 or not UTF-8.
 */
export function decodeHeaderValue(value: string): string | null {
  const m = /^=\?base64\?(.*)\?=$/.exec(value);
  if (!m) return value;
  const payload = m[1]!;
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(payload)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(payload, 'base64'));
  } catch {
    return null;
  }
}

/**
 * Which era serves a request (a message with a string method and an id), or the revision's error
 * for one that claims 2026-07-28 and breaks its rules. The checks run in the reference SDK's order:
 * the `_meta` envelope (-32602), header against body (-32020), the version (-32022), the required
 * headers (-32020). Method names are left to the era's dispatcher (-32601, HTTP 404).
 */
export function classifyRequest(method: string, params: unknown, headers: McpHeaders | null): Classified {
  const headerVersion = headers?.protocolVersion;
  const headerNamesStateless = headerVersion !== undefined && isStatelessVersion(headerVersion);

  if (!claimsStatelessRevision(method, params)) {
    if (method === 'initialize' && headerNamesStateless) {
      return headerMismatch(`initialize opens the handshake revisions, but MCP-Protocol-Version names ${headerVersion}; 2026-07-28 has no initialize (call server/discover)`, headerVersion, 'initialize');
    }
    if (headerNamesStateless) {
      return refused(400, INVALID_PARAMS, `Invalid params: MCP-Protocol-Version names ${headerVersion}, but params._meta lacks ${META_KEY.protocolVersion} and ${META_KEY.clientCapabilities}, which every 2026-07-28 request carries`, {
        missing: ['_meta'],
      });
    }
    return { era: 'handshake' };
  }

  const problem = envelopeProblem(params);
  if (problem) return refused(400, INVALID_PARAMS, `Invalid params: _meta ${problem.key} ${problem.problem}`, { envelope: problem });
  const version = metaOf(params)![META_KEY.protocolVersion] as string;

  if (headers) {
    if (headerVersion !== undefined && headerVersion !== version) {
      return headerMismatch(`MCP-Protocol-Version is ${headerVersion} but params._meta names ${version}`, headerVersion, version);
    }
    if (headers.method !== undefined && headers.method !== method) {
      return headerMismatch(`Mcp-Method is ${headers.method} but the body's method is ${method}`, headers.method, method);
    }
  }

  if (!(STATELESS_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
    const hint = isStatelessVersion(version)
      ? `use ${STATELESS_PROTOCOL_VERSIONS.join(', ')}`
      : `${version} is a handshake revision: open with initialize for it, or use ${STATELESS_PROTOCOL_VERSIONS.join(', ')} in _meta`;
    return refused(400, MCP_ERROR.UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version ${version}: ${hint}`, {
      supported: [...SERVED_PROTOCOL_VERSIONS],
      requested: version,
    });
  }

  if (headers) {
    if (headerVersion === undefined) return headerMismatch('the MCP-Protocol-Version header is required on every 2026-07-28 request', '(missing)', version);
    if (headers.method === undefined) return headerMismatch('the Mcp-Method header is required on every 2026-07-28 request', '(missing)', method);
    const bodyName = nameSourceOf(method, params);
    if (bodyName !== undefined) {
      if (headers.name === undefined) return headerMismatch(`the Mcp-Name header is required on tools/call (params.name is ${bodyName})`, '(missing)', bodyName);
      const decoded = decodeHeaderValue(headers.name);
      if (decoded === null) return headerMismatch('Mcp-Name holds an invalid =?base64?...?= value', headers.name, bodyName);
      if (decoded !== bodyName) return headerMismatch(`Mcp-Name is ${decoded} but params.name is ${bodyName}`, decoded, bodyName);
    }
  }
  return { era: 'stateless', version };
}

/** The 2026-07-28 answer to a method it does not define here (initialize, ping, resources/*, ...). */
export function statelessMethodNotFound(method: string): ProtocolRefusal {
  return {
    status: 404,
    code: METHOD_NOT_FOUND,
    message: `Method not found: ${method}. 2026-07-28 requests here call ${STATELESS_METHODS.join(', ')}`,
  };
}
