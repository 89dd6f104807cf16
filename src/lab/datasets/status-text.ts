/**
 * The text of a generated social-media status, with its entities: hashtags, mentions and links
 * placed in multilingual words and emoji, each entity with the [start, end) of its place in the
 * text counted in code points, as the public APIs count them (an emoji outside the BMP is one).
 */
import type { Random } from '../random.js';

export interface Mention {
  readonly screen_name: string;
  readonly name: string;
  readonly id: number;
  readonly id_str: string;
}

export interface StatusText {
  readonly text: string;
  readonly hashtags: { text: string; indices: number[] }[];
  readonly symbols: { text: string; indices: number[] }[];
  readonly user_mentions: {
    screen_name: string;
    name: string;
    id: number;
    id_str: string;
    indices: number[];
  }[];
  readonly urls: { url: string; expanded_url: string; display_url: string; indices: number[] }[];
}

/** Words by language: Latin with accents, CJK with no spaces needed, Hangul, Arabic (right to left). */
export const wordsByLanguage: Readonly<Record<string, readonly string[]>> = Object.freeze({
  en: split('the new release is out today and we love how fast it runs thanks everyone for coming'),
  es: split('mañana canción fútbol está muy bien qué día más bonito gracias años corazón'),
  fr: split('été déjà très bientôt théâtre soirée première fête grâce à vous où ça'),
  ja: split('今日は 東京 ラーメン 新しい 天気 最高 です ありがとう 楽しみ 週末 電車 桜'),
  zh: split('北京 今天 天气 很好 我们 朋友 周末 音乐 电影 欢迎 大家 分享'),
  ko: split('안녕하세요 오늘 서울 날씨 좋아요 감사합니다 주말 음악 친구 사랑해요'),
  ar: split('مرحبا اليوم شكرا جميل القهوة الصباح أصدقاء مدينة'),
});

/** Single emoji and sequences: a heart with its variation selector, a skin tone, a flag, a family. */
const emoji = split('😀 🎉 🔥 🙏 ✨ 🚀 ❤️ 👍🏽 🇯🇵 🇧🇷 👨‍👩‍👧 🍜 ☕ 🌸 💯');

const hashtagWords = split(
  'javascript typescript nodejs webdev opensource music travel foodie tokyo 東京 fútbol café photography 100daysofcode',
);
const tickers = split('AAPL TSLA NVDA SONY SAP BABA');
const linkHosts = split('example.com blog.example.org news.example.net shop.example.io');

function split(text: string): readonly string[] {
  return Object.freeze(text.trim().split(/\s+/));
}

const codePoints = (text: string): number => {
  let count = 0;
  for (const _ of text) count++;
  return count;
};

/** A short link id of ten letters and digits, as a link shortener writes them. */
function shortId(random: Random): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const chars: string[] = [];
  for (let i = 0; i < 10; i++) chars.push(alphabet[random.int(0, alphabet.length - 1)] as string);
  return chars.join('');
}

/** A link entity's three spellings: the short link in the text, where it goes, and what is shown. */
export function link(random: Random): { url: string; expanded_url: string; display_url: string } {
  const host = random.pick(linkHosts);
  const path = ['p', String(random.int(1_000, 999_999))].join('/');
  return {
    url: ['https://t.co/', shortId(random)].join(''),
    expanded_url: ['https://', host, '/', path].join(''),
    display_url: [host, '/', path].join(''),
  };
}

/**
 * A status of `words` words in `language`, with emoji, now and then a cashtag, 0-3 hashtags, the given mentions and 0-2
 * links spread through it. Strings are built with join only, so they are flat.
 */
export function statusText(
  random: Random,
  language: string,
  words: number,
  mentions: readonly Mention[],
): StatusText {
  const vocabulary = wordsByLanguage[language] ?? (wordsByLanguage.en as readonly string[]);
  const parts: string[] = [];
  let offset = 0;
  const hashtags: StatusText['hashtags'] = [];
  const symbols: StatusText['symbols'] = [];
  const user_mentions: StatusText['user_mentions'] = [];
  const urls: StatusText['urls'] = [];
  /** Appends a piece (with a space before it, after the first), returning its [start, end). */
  const append = (piece: string): number[] => {
    if (parts.length > 0) {
      parts.push(' ');
      offset += 1;
    }
    const start = offset;
    parts.push(piece);
    offset += codePoints(piece);
    return [start, offset];
  };
  for (const mention of mentions) {
    const indices = append(['@', mention.screen_name].join(''));
    user_mentions.push({ ...mention, indices });
  }
  const hashtagCount = random.int(0, 3);
  const linkCount = random.int(0, 2);
  for (let i = 0; i < words; i++) {
    const draw = random.next();
    if (draw < 0.08) append(random.pick(emoji));
    else if (draw < 0.085) {
      const ticker = random.pick(tickers);
      symbols.push({ text: ticker, indices: append(['$', ticker].join('')) });
    } else if (draw < 0.085 + hashtagCount / Math.max(words, 1)) {
      const tag = random.pick(hashtagWords);
      hashtags.push({ text: tag, indices: append(['#', tag].join('')) });
    } else append(random.pick(vocabulary));
  }
  for (let i = 0; i < linkCount; i++) {
    const target = link(random);
    urls.push({ ...target, indices: append(target.url) });
  }
  return { text: parts.join(''), hashtags, symbols, user_mentions, urls };
}
