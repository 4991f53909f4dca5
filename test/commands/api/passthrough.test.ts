// Pure parts of `sitebuilder api` and `email`: typed fields and nested keys, the listing
// pattern a page reveals, tolerant email domain records, and which records changed.
import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../../src/api/call.js';
import { applyFields, parseKey, typedValue } from '../../../src/commands/api/fields.js';
import { detectPattern } from '../../../src/commands/api/pages.js';
import { dnsRecordsOf, emailDomainsOf, statusInWords } from '../../../src/commands/email/records.js';
import { markChanges } from '../../../src/commands/email/restart.js';
import { UsageError } from '../../../src/errors.js';

const noFiles = async (source: string) => `<${source}>`;

describe('-f and -F fields', () => {
  it('types -F values: numbers, true, false, null, JSON, @file; -f stays text', async () => {
    const body = await applyFields(
      {},
      [
        { raw: 'n=42', typed: true },
        { raw: 'x=-1.5e3', typed: true },
        { raw: 'yes=true', typed: true },
        { raw: 'no=false', typed: true },
        { raw: 'none=null', typed: true },
        { raw: 'obj={"a":[1,2]}', typed: true },
        { raw: 'list=[1,"b"]', typed: true },
        { raw: 'file=@brief.txt', typed: true },
        { raw: 'text=42', typed: false },
        { raw: 'word=hello', typed: true },
        { raw: 'eq=a=b', typed: false },
        { raw: 'zero=007', typed: true },
      ],
      noFiles,
    );
    expect(body).toEqual({
      n: 42,
      x: -1500,
      yes: true,
      no: false,
      none: null,
      obj: { a: [1, 2] },
      list: [1, 'b'],
      file: '<brief.txt>',
      text: '42',
      word: 'hello',
      eq: 'a=b',
      zero: '007',
    });
  });

  it('nests keys like gh: name[sub]=, name[]= appends', async () => {
    const body = await applyFields(
      { keep: 1 },
      [
        { raw: 'importSource[SourceUrl]=https://x.example', typed: false },
        { raw: 'paths[]=a/', typed: false },
        { raw: 'paths[]=b.txt', typed: false },
        { raw: 'deep[a][b]=1', typed: true },
      ],
      noFiles,
    );
    expect(body).toEqual({
      keep: 1,
      importSource: { SourceUrl: 'https://x.example' },
      paths: ['a/', 'b.txt'],
      deep: { a: { b: 1 } },
    });
    expect(parseKey('a[b][]', '-f')).toEqual(['a', 'b', '']);
  });

  it('refuses malformed fields with a usage error', async () => {
    for (const raw of ['noequals', '=v', 'a[b=1', 'a[][b]=1']) {
      await expect(applyFields({}, [{ raw, typed: false }], noFiles), raw).rejects.toBeInstanceOf(UsageError);
    }
    await expect(typedValue('{nope', 'k', noFiles)).rejects.toThrow(/not valid JSON/);
    await expect(
      applyFields(
        {},
        [
          { raw: 'a=1', typed: false },
          { raw: 'a[b]=2', typed: false },
        ],
        noFiles,
      ),
    ).rejects.toThrow(/conflicts/);
  });
});

describe('the listing pattern of a page', () => {
  const env = (data: unknown, extra: Record<string, unknown> = {}) =>
    ({ success: true, message: '', code: 200, data, ...extra }) as Envelope;
  it('is read from the paging fields', () => {
    expect(detectPattern(env({ items: [], nextCursor: null }))).toBe('nextCursor');
    expect(detectPattern(env({ items: [], nextToken: 't' }))).toBe('token');
    expect(detectPattern(env({ items: [], hasMore: true, oldestCursor: 'm1' }))).toBe('backwards');
    expect(detectPattern(env({ items: [], hasMore: false, nextOffset: null }))).toBe('offsetHasMore');
    expect(detectPattern(env({ items: [], page: 1, totalPages: 3 }))).toBe('page');
    expect(detectPattern(env([], { count: 10 }))).toBe('offset');
    expect(detectPattern(env({ anything: 1 }))).toBeUndefined();
    // The obvious alternatives of each field.
    expect(detectPattern(env({ runs: [], next_cursor: 7 }))).toBe('nextCursor');
    expect(detectPattern(env({ files: [], nextPageToken: 'x' }))).toBe('token');
    expect(detectPattern(env({ entries: [], nextPageOffset: 20 }))).toBe('offsetHasMore');
    expect(detectPattern(env({ backups: [], page: 1, pageCount: 3 }))).toBe('page');
    expect(detectPattern(env([], { count: '10' }))).toBe('offset');
  });
});

describe('email domain records', () => {
  it('reads the known fields and the obvious alternatives', () => {
    const ours = {
      domainId: 'd1',
      dkimRecords: [{ type: 'CNAME', host: 'a', value: 'b' }],
      ownershipRecord: { type: 'TXT', host: 'o', value: 'v' },
    };
    expect(dnsRecordsOf(ours).map((r) => r.label)).toEqual(['DKIM 1', 'Ownership']);
    const theirs = {
      id: 'd2',
      records: {
        dkim: [{ recordType: 'CNAME', name: 'x', data: 'y' }],
        ownership: { recordType: 'TXT', name: 'n', content: 'c' },
      },
    };
    expect(dnsRecordsOf(theirs)).toEqual([
      { label: 'DKIM 1', kind: 'dkim', type: 'CNAME', host: 'x', value: 'y' },
      { label: 'Ownership', kind: 'ownership', type: 'TXT', host: 'n', value: 'c' },
    ]);
    expect(dnsRecordsOf({})).toEqual([]);
    expect(emailDomainsOf({ emailDomains: { items: [{ domainId: 'a' }] } })).toHaveLength(1);
    expect(emailDomainsOf({ emailDomains: [{ domainId: 'a' }] })).toHaveLength(1);
    expect(emailDomainsOf(null)).toEqual([]);
  });

  it('says the status in words, with the next step', () => {
    expect(statusInWords({ domainId: 'd', dkimStatus: 'failed', canRestart: true }, 's')).toBe(
      'verification failed; check the records at your DNS host, or restart: sitebuilder email restart s d',
    );
    expect(statusInWords({ dkimStatus: 'success', verified: true }, 's')).toBe('verified; nothing to do');
    expect(statusInWords({ dkimStatus: 'failed', paused: true }, 's')).toContain('paused');
    expect(statusInWords({ dkimStatus: 'something_new' }, 's')).toBe('status something_new');
  });

  it('marks the records whose host or value changed', () => {
    const rec = (label: string, value: string) => ({ label, kind: 'dkim' as const, type: 'CNAME', host: 'h', value });
    expect(
      markChanges([rec('DKIM 1', 'a'), rec('Ownership', 'o')], [rec('DKIM 1', 'b'), rec('Ownership', 'o')]).map((r) => [
        r.changed,
        r.previousValue,
      ]),
    ).toEqual([
      [true, 'a'],
      [false, null],
    ]);
  });
});
