import { describe, expect, it } from 'vitest';
import { byUrlCsv, totalsCsv, type CsvMoney } from './activityCsv.ts';

const EUR: CsvMoney = { currency: 'eur', rates: { usdToEur: 0.9, btcToEur: 60_000 } };
const BTC: CsvMoney = { ...EUR, currency: 'btc' };

const metrics = (impressions: number, leads: number | null = null) => ({
  impressions,
  clicks: 2,
  ctr: 1.5,
  cpc: 0.3,
  cpm: 4,
  costs: 0.6,
  leads,
  lr: null,
  cpl: null,
});

describe('activity CSV exports', () => {
  it('lists the totals, then each ad followed by its publishers', () => {
    const csv = totalsCsv(
      {
        stats: { total: metrics(300, 1) },
        ads: [
          { id: 7, stats: { total: metrics(200), byPublisher: [{ ...metrics(150), brand: 'Daily, Owl' }] } },
          { id: 9, stats: { total: metrics(100), byPublisher: null } },
        ],
      },
      'Total',
      EUR,
    );
    expect(csv.split('\r\n')).toEqual([
      'line,impressions,clicks,ctr,cpc (EUR),cpm (EUR),costs (EUR),leads,lr,cpl (EUR)',
      'Total,300,2,1.5,0.3,4,0.6,1,,',
      'ad 7,200,2,1.5,0.3,4,0.6,,,',
      '"ad 7 / Daily, Owl",150,2,1.5,0.3,4,0.6,,,',
      'ad 9,100,2,1.5,0.3,4,0.6,,,',
      '',
    ]);
  });

  it('lists one line per URL', () => {
    expect(byUrlCsv([{ ...metrics(10), url: 'https://a.example/' }], EUR)).toBe(
      'url,impressions,clicks,ctr,cpc (EUR),cpm (EUR),costs (EUR),leads,lr,cpl (EUR)\r\nhttps://a.example/,10,2,1.5,0.3,4,0.6,,,\r\n',
    );
  });

  it('rounds as the screen shows: percentages to 2 decimals, amounts to their currency (issue 26)', () => {
    const line = {
      url: 'https://a.example/',
      impressions: 1653,
      clicks: 10,
      ctr: 0.6048498973419899,
      cpc: 0.123456,
      cpm: 1.23456789,
      costs: 2.0049999,
      leads: 3,
      lr: 33.333333333,
      cpl: 0.6683333,
    };
    expect(byUrlCsv([line], EUR).split('\r\n')[1]).toBe('https://a.example/,1653,10,0.6,0.12,1.23,2,3,33.33,0.67');
    expect(byUrlCsv([line], BTC).split('\r\n')).toEqual([
      'url,impressions,clicks,ctr,cpc (BTC),cpm (BTC),costs (BTC),leads,lr,cpl (BTC)',
      'https://a.example/,1653,10,0.6,0.00000206,0.00002058,0.00003342,3,33.33,0.00001114',
      '',
    ]);
  });
});
