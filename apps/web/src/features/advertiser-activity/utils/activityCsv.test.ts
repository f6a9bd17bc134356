import { describe, expect, it } from 'vitest';
import { byUrlCsv, totalsCsv } from './activityCsv.ts';

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
    );
    expect(csv.split('\r\n')).toEqual([
      'line,impressions,clicks,ctr,cpc,cpm,costs,leads,lr,cpl',
      'Total,300,2,1.5,0.3,4,0.6,1,,',
      'ad 7,200,2,1.5,0.3,4,0.6,,,',
      '"ad 7 / Daily, Owl",150,2,1.5,0.3,4,0.6,,,',
      'ad 9,100,2,1.5,0.3,4,0.6,,,',
      '',
    ]);
  });

  it('lists one line per URL', () => {
    expect(byUrlCsv([{ ...metrics(10), url: 'https://a.example/' }])).toBe(
      'url,impressions,clicks,ctr,cpc,cpm,costs,leads,lr,cpl\r\nhttps://a.example/,10,2,1.5,0.3,4,0.6,,,\r\n',
    );
  });
});
