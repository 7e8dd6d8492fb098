/**
 * The admin routes of the resolver's registries: partial-redirect rules
 * (a prefix of names sent on to another resolver) and the authorities it
 * holds, with their contacts and their parents and children (1995 draft
 * §3.5).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UriError } from 'urikit';
import { urc0Charset } from '../../formats/charset.js';
import { authorityPrefix, nameKey, prefixInAuthority } from '../../store/keys.js';
import type { Store } from '../../store/store.js';
import type { Authority } from '../../store/types.js';
import { InputError } from '../../store/validate.js';
import { ADMIN_ROUTE_DOCS as D } from './docs.js';
import { delegations, RESOLVER_SCHEMES } from './delegations.js';
import { inputError, jsonObject, optText, uriField, urnFromPath } from './request.js';
import { AUTHORITY_BODY_SCHEMA, PREFIX_RULE_BODY_SCHEMA } from './schemas.js';
import { inScope as scoped, problem } from './scope.js';

/** Registers the registry routes on the admin scope; a contact may also be `mailto:` (1995 draft §3.5.1: "likely ... a mailto URL"). */
export async function registryRoutes(admin: FastifyInstance, { store, schemes }: { store: Store; schemes: ReadonlySet<string> }): Promise<void> {
  const contactSchemes = new Set([...schemes, 'mailto']);
  /** A rule's prefix in canonical form (NID case, %hh case, dns AuthorityID case), as the keys it matches are. */
  const rulePrefix = (raw: string): string => nameKey(`${raw}x`).key.slice(0, -1);
  /** A rule may only match names of the token's authority: every key it can match must be in it. */
  const ruleScoped = (request: FastifyRequest, reply: FastifyReply, prefix: string): boolean => {
    if (prefixInAuthority(prefix, request.adminToken!.authority)) return true;
    problem(reply, 403, 'Forbidden', { detail: `a rule for "${prefix}" would match names outside this token's authority "${request.adminToken!.authority}"` });
    return false;
  };

  admin.put('/prefix-rules', { schema: { ...D.putRule, body: PREFIX_RULE_BODY_SCHEMA } }, async (request, reply) => {
    const body = jsonObject(request.body);
    if (!body) return problem(reply, 400, 'Invalid rule', { detail: 'the body must be a JSON object' });
    let prefix: string;
    let target: string;
    try {
      if (typeof body.prefix !== 'string' || body.prefix.length > 1024) throw new InputError('"prefix" must be a URN prefix');
      prefix = rulePrefix(body.prefix);
      target = uriField(body.target, 'target', schemes);
    } catch (e) {
      if (e instanceof UriError) return problem(reply, 400, 'Invalid prefix', { code: e.code, offset: e.offset, detail: e.message });
      return inputError(reply, e);
    }
    if (!ruleScoped(request, reply, prefix)) return reply;
    return store.prefixRules.put(prefix, target);
  });
  admin.get('/prefix-rules', { schema: D.listRules }, async (request) => {
    const auth = request.adminToken!.authority;
    return (await store.prefixRules.list(auth)).filter((r) => prefixInAuthority(r.prefix, auth));
  });
  admin.delete('/prefix-rules/*', { schema: D.deleteRule }, async (request, reply) => {
    let prefix: string;
    try {
      prefix = rulePrefix(urnFromPath(request, '/admin/prefix-rules/'));
    } catch (e) {
      if (e instanceof UriError) return problem(reply, 400, 'Invalid prefix', { code: e.code, offset: e.offset, detail: e.message });
      throw e;
    }
    if (!ruleScoped(request, reply, prefix)) return reply;
    return (await store.prefixRules.delete(prefix)) ? { deleted: prefix } : problem(reply, 404, 'Not Found', { detail: 'no such rule' });
  });

  admin.put('/authorities', { schema: { ...D.putAuthority, body: AUTHORITY_BODY_SCHEMA } }, async (request, reply) => {
    const b = jsonObject(request.body);
    if (!b) return problem(reply, 400, 'Invalid authority', { detail: 'the body must be a JSON object' });
    let a: Authority;
    try {
      if (typeof b.name !== 'string') throw new InputError('"name" is required');
      const name = authorityPrefix(b.name);
      const names = (v: unknown, f: string): string[] => {
        if (v === undefined) return [];
        if (!Array.isArray(v) || v.length > 1000 || !v.every((x) => typeof x === 'string' && x.length < 1024)) throw new InputError(`"${f}" must be a list of names`);
        return (v as string[]).map(authorityPrefix);
      };
      a = { name, children: names(b.children, 'children'), parents: names(b.parents, 'parents') };
      if (b.contact !== undefined) a.contact = uriField(b.contact, 'contact', contactSchemes);
      if (b.allUrl !== undefined) a.allUrl = uriField(b.allUrl, 'allUrl', schemes);
      if (b.resolvers !== undefined) a.resolvers = delegations(b.resolvers, [...a.children, ...a.parents], (v, f) => uriField(v, f, RESOLVER_SCHEMES));
      const meta = optText(b.meta, 'meta', 8192); if (meta !== undefined) a.meta = meta;
      const allMeta = optText(b.allMeta, 'allMeta', 8192); if (allMeta !== undefined) a.allMeta = allMeta;
      const language = optText(b.language, 'language', 64); if (language !== undefined) a.language = language;
      if (b.charset !== undefined) {
        const cs = typeof b.charset === 'string' ? urc0Charset(b.charset) : undefined;
        if (!cs) throw new InputError('"charset" must be US-ASCII or ISO-8859-1..9');
        a.charset = cs;
      }
    } catch (e) {
      if (e instanceof UriError) return problem(reply, 400, 'Invalid authority', { code: e.code, offset: e.offset, detail: e.message });
      return inputError(reply, e);
    }
    if (!scoped(request, reply, a.name)) return reply;
    await store.authorities.put(a);
    return a;
  });
  admin.get('/authorities', { schema: D.listAuthorities }, async () => store.authorities.list());
}
