import { describe, expect, it } from 'vitest';
import {
  addressNetwork,
  heartbeatHost,
  isOnRegisteredDomain,
  linkWithClickId,
  pageAddress,
  withoutControlCharacters,
} from '../src/delivery/addresses.ts';

describe('isOnRegisteredDomain', () => {
  it('accepts the domain and its subdomains, www. and case ignored', () => {
    expect(isOnRegisteredDomain('blog.example', 'blog.example')).toBe(true);
    expect(isOnRegisteredDomain('www.Blog.Example', 'blog.example')).toBe(true);
    expect(isOnRegisteredDomain('news.blog.example', 'www.blog.example')).toBe(true);
  });

  it('refuses other hosts, look-alikes and a publisher without a domain', () => {
    expect(isOnRegisteredDomain('evilblog.example', 'blog.example')).toBe(false);
    expect(isOnRegisteredDomain('blog.example.evil.test', 'blog.example')).toBe(false);
    expect(isOnRegisteredDomain('blog.example', null)).toBe(false);
    expect(isOnRegisteredDomain('blog.example', '  ')).toBe(false);
    expect(isOnRegisteredDomain('', 'blog.example')).toBe(false);
  });
});

describe('text a request sends, before it is stored', () => {
  it('loses its control characters (a NUL, which PostgreSQL refuses in text, line breaks)', () => {
    expect(withoutControlCharacters('a\u0000b\r\nc\u007f\u001bd')).toBe('abcd');
    expect(withoutControlCharacters('café é')).toBe('café é');
    expect(pageAddress('http://blog.example/a\u0000b')).toBe('http://blog.example/ab');
    expect(pageAddress('http://blog.example/a%00')).toBe('http://blog.example/a%00');
  });

  it('keeps a host name only when it is one: letters, digits, dots, hyphens or an IP, at most 253 characters', () => {
    expect(heartbeatHost('Blog.Example')).toBe('blog.example');
    expect(heartbeatHost('xn--caf-dma.example')).toBe('xn--caf-dma.example');
    expect(heartbeatHost('localhost')).toBe('localhost');
    expect(heartbeatHost('127.0.0.1')).toBe('127.0.0.1');
    expect(heartbeatHost('[::1]')).toBe('[::1]');
    expect(heartbeatHost(`${'a'.repeat(60)}.`.repeat(4) + 'example')).toHaveLength(251);
    expect(heartbeatHost(`${'a'.repeat(60)}.`.repeat(5) + 'example')).toBe('');
    expect(heartbeatHost('a'.repeat(3600))).toBe('');
    expect(heartbeatHost('bad host')).toBe('');
    expect(heartbeatHost('')).toBe('');
  });
});

describe('pageAddress', () => {
  it('keeps an http or https address without its fragment', () => {
    expect(pageAddress('https://blog.example/a?b=1#top')).toBe('https://blog.example/a?b=1');
    expect(pageAddress('http://localhost:8080/')).toBe('http://localhost:8080/');
  });

  it("leaves out campaign trackers and parameters that may hold a secret or a person's e-mail", () => {
    expect(pageAddress('https://blog.example/a?id=7&utm_source=news&utm_medium=mail&fbclid=x1')).toBe(
      'https://blog.example/a?id=7',
    );
    expect(pageAddress('https://shop.example/reset?token=abc123&step=2')).toBe('https://shop.example/reset?step=2');
    expect(pageAddress('https://shop.example/welcome?email=ann%40example.org')).toBe('https://shop.example/welcome');
    expect(pageAddress('https://shop.example/welcome?to=ann@example.org&lang=fr#top')).toBe(
      'https://shop.example/welcome?lang=fr',
    );
    expect(pageAddress('https://app.example/?sid=9f&session_id=1&apiKey=k&code=77&gclid=g')).toBe(
      'https://app.example/',
    );
  });

  it('keeps an address with nothing to leave out as it was written', () => {
    expect(pageAddress('https://blog.example/search?q=v%C3%A9lo+urbain&page=2')).toBe(
      'https://blog.example/search?q=v%C3%A9lo+urbain&page=2',
    );
    expect(pageAddress('https://blog.example/?p=123&inside=1&keyword=bike&author=2&authority=x')).toBe(
      'https://blog.example/?p=123&inside=1&keyword=bike&author=2&authority=x',
    );
    // The parameters kept stay as written when a tracker is left out: the same page, the same address.
    expect(pageAddress('https://blog.example/search?q=a%20b&tag&fbclid=1')).toBe(
      'https://blog.example/search?q=a%20b&tag',
    );
    expect(pageAddress('https://blog.example/?auth_token=s3cret&page=2')).toBe('https://blog.example/?page=2');
  });

  it('cuts a long address at the given length', () => {
    expect(pageAddress(`https://blog.example/${'a'.repeat(600)}`, 500)).toHaveLength(500);
  });

  it('gives no address for other schemes, non-addresses and non-strings', () => {
    expect(pageAddress('javascript:alert(1)//https://blog.example/')).toBe('');
    expect(pageAddress('data:text/html,hello')).toBe('');
    expect(pageAddress('ftp://blog.example/file')).toBe('');
    expect(pageAddress('/relative/path')).toBe('');
    expect(pageAddress('')).toBe('');
    expect(pageAddress(42)).toBe('');
    expect(pageAddress(['https://blog.example/'])).toBe('');
  });
});

describe('addressNetwork', () => {
  it('keeps an IPv4 address, also IPv4-mapped, and takes the /64 of an IPv6 address however it is written', () => {
    expect(addressNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(addressNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressNetwork('2001:db8:85a3:12:8a2e:370:7334:1')).toBe('2001:db8:85a3:12::/64');
    expect(addressNetwork('2001:DB8:85A3:0012:ffff:1:2:3')).toBe('2001:db8:85a3:12::/64');
    expect(addressNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressNetwork('2001:db8:0:0:1::2')).toBe('2001:db8:0:0::/64');
    expect(addressNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressNetwork('::1')).toBe('0:0:0:0::/64');
    expect(addressNetwork('2001:db8:1:2::')).toBe('2001:db8:1:2::/64');
    expect(addressNetwork('2001:db8:1:3::')).not.toBe(addressNetwork('2001:db8:1:2::'));
  });
});

describe('linkWithClickId', () => {
  it("adds the click id and keeps the advertiser's query and fragment as written", () => {
    expect(linkWithClickId('https://shop.example/spring', 'abc_1-2')).toBe('https://shop.example/spring?hclid=abc_1-2');
    expect(linkWithClickId('https://shop.example/spring?utm=spring%20sale&ref&x=a~b#top', 'id1')).toBe(
      'https://shop.example/spring?utm=spring%20sale&ref&x=a~b&hclid=id1#top',
    );
    expect(linkWithClickId('http://shop.example/?hclid=old&a=1', 'new')).toBe('http://shop.example/?hclid=new&a=1');
  });

  it('refuses a link that is not http or https, or not a link', () => {
    expect(linkWithClickId('javascript:alert(1)', 'id')).toBeNull();
    expect(linkWithClickId('ftp://shop.example/', 'id')).toBeNull();
    expect(linkWithClickId('not a link', 'id')).toBeNull();
  });
});
