// A request's URL: the path under the base URL, and the query set on it once. A path that carries its own query
// keeps it as written when no parameter is added (an empty list adds none), and has parameters set or added after it.
import { describe, expect, it } from 'vitest';
import { testHttpClient } from '../helpers/http-client.js';

const client = testHttpClient('https://api.example.test/base/');

describe('a request URL', () => {
  it('puts the path under the base URL and the query after it, lists as repeated names', () => {
    const url = client.url('/v1/dnc/list 1', { type: 'all', page: 2, search: 'a+b c', ids: [1, 2], none: undefined });
    expect(url.href).toBe('https://api.example.test/base/v1/dnc/list%201?type=all&page=2&search=a%2Bb+c&ids=1&ids=2');
  });

  it('drops a space or control character at the end of the path, as the URL parser does, query or not', () => {
    for (const path of ['/v1/dnc ', '/v1/dnc\n', '/v1/dnc\u0000'])
      for (const [query, search] of [
        [undefined, ''],
        [{ page: 2 }, '?page=2'],
      ] as const)
        expect(client.url(path, query).href).toBe(`https://api.example.test/base/v1/dnc${search}`);
    expect(client.url('/v1/a b', { page: 2 }).href).toBe('https://api.example.test/base/v1/a%20b?page=2');
  });

  it('writes a query as URLSearchParams does, plain names and values or not', () => {
    const values = ['all', '2', 'a b', 'a+b', 'x*y.z_-', 'é', '&=', '', '~', "it's", '100%'];
    for (const name of ['search', 'page[n]'])
      for (const first of values)
        for (const second of values) {
          const query = { type: first, [name]: second, ids: [first, second], page: 2 };
          const entries: Array<[string, string]> = [
            ['type', first],
            [name, second],
            ['ids', first],
            ['ids', second],
            ['page', '2'],
          ];
          expect(client.url('/v1/dnc/x', query).search).toBe(`?${new URLSearchParams(entries)}`);
        }
    expect(client.url('/v1/dnc/x', { type: 'all', page: 2, pageSize: 100 }).search).toBe(
      '?type=all&page=2&pageSize=100',
    );
  });

  it("keeps a path's own query as written when nothing is added", () => {
    for (const query of [undefined, {}, { ids: [] }, { page: undefined, search: null }])
      expect(client.url('/x?filter[a]=1&s=a%20b', query as never).search).toBe('?filter[a]=1&s=a%20b');
  });

  it("sets a parameter the path's query has, and adds the others after it", () => {
    expect(client.url('/x?page=1&s=a', { page: 3, ids: [7] }).search).toBe('?page=3&s=a&ids=7');
  });
});
