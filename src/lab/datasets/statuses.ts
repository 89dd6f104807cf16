/**
 * `statuses`: a social-media API's timeline, each status as the classic public API returned it
 * (the shape of the `twitter.json` of JSON benchmark corpora, generated here): a nested author
 * with ~40 profile fields, entity arrays (hashtags, mentions, links, media) whose indices place
 * them in long multilingual text with emoji and CJK, many nullable and optional fields, ids as
 * 16-digit integers beside their string twins, timestamps as text, and a quarter of them retweets
 * holding the original status. The keys are the API's own snake_case. The schema is the one
 * `inferSchema` gives for the statuses as JSON (see test/lab/datasets/shapes.test.ts). Ids stay
 * below 2^53: the real API's pass it, which JSON.parse rounds, hence its `id_str` twins.
 */
import { type Infer, t } from '../../schema/index.js';
import { type Random, seededRandom } from '../random.js';
import type { Dataset } from './dataset.js';
import { link, type Mention, statusText, wordsByLanguage } from './status-text.js';
import { cities, firstNames, lastNames } from './text.js';

const id = () => t.int64({ as: 'number' });
const indices = () => t.array(t.int32());
const urlEntity = (name: string) =>
  t.object(name, { url: t.string(), expanded_url: t.string(), display_url: t.string(), indices: indices() });

const StatusUser = t.object('User', {
  id: id(),
  id_str: t.string(),
  name: t.string(),
  screen_name: t.string(),
  location: t.string(),
  description: t.string(),
  url: t.nullable(t.string()),
  entities: t.object('UserEntities', {
    url: t.optional(t.object('Url', { urls: t.array(urlEntity('UserUrl')) })),
    description: t.object('Description', { urls: t.array(urlEntity('DescriptionUrl')) }),
  }),
  protected: t.bool(),
  followers_count: t.int32(),
  friends_count: t.int32(),
  listed_count: t.int32(),
  created_at: t.string(),
  favourites_count: t.int32(),
  utc_offset: t.nullable(t.int32()),
  time_zone: t.nullable(t.string()),
  geo_enabled: t.bool(),
  verified: t.bool(),
  statuses_count: t.int32(),
  lang: t.string(),
  profile_background_color: t.string(),
  profile_background_image_url: t.nullable(t.string()),
  profile_image_url_https: t.string(),
  profile_banner_url: t.optional(t.string()),
  profile_link_color: t.string(),
  profile_text_color: t.string(),
  profile_use_background_image: t.bool(),
  default_profile: t.bool(),
  default_profile_image: t.bool(),
  following: t.bool(),
  follow_request_sent: t.bool(),
  notifications: t.bool(),
});

const Entities = t.object('Entities', {
  hashtags: t.array(t.object('Hashtag', { text: t.string(), indices: indices() })),
  symbols: t.array(t.object('Symbol', { text: t.string(), indices: indices() })),
  urls: t.array(urlEntity('StatusUrl')),
  user_mentions: t.array(
    t.object('UserMention', {
      screen_name: t.string(),
      name: t.string(),
      id: id(),
      id_str: t.string(),
      indices: indices(),
    }),
  ),
  media: t.optional(
    t.array(
      t.object('Media', {
        id: id(),
        id_str: t.string(),
        indices: indices(),
        media_url_https: t.string(),
        url: t.string(),
        display_url: t.string(),
        expanded_url: t.string(),
        type: t.string(),
        sizes: t.object('Sizes', {
          thumb: t.object('Thumb', { w: t.int32(), h: t.int32(), resize: t.string() }),
          large: t.object('Large', { w: t.int32(), h: t.int32(), resize: t.string() }),
        }),
      }),
    ),
  ),
});

const Place = t.object('Place', {
  id: t.string(),
  place_type: t.string(),
  name: t.string(),
  full_name: t.string(),
  country_code: t.string(),
  bounding_box: t.object('BoundingBox', { type: t.string(), coordinates: t.array(t.array(t.float64())) }),
});

const Metadata = t.object('Metadata', { result_type: t.string(), iso_language_code: t.string() });
const Coordinates = t.object('Coordinates', { type: t.string(), coordinates: t.array(t.float64()) });

/** The fields of a status; a retweet's original status has all but `retweeted_status`. */
const statusFields = {
  metadata: Metadata,
  created_at: t.string(),
  id: id(),
  id_str: t.string(),
  text: t.string(),
  source: t.string(),
  truncated: t.bool(),
  in_reply_to_status_id: t.nullable(id()),
  in_reply_to_status_id_str: t.nullable(t.string()),
  in_reply_to_user_id: t.nullable(id()),
  in_reply_to_user_id_str: t.nullable(t.string()),
  in_reply_to_screen_name: t.nullable(t.string()),
  user: StatusUser,
  coordinates: t.nullable(Coordinates),
  place: t.nullable(Place),
  retweet_count: t.int32(),
  favorite_count: t.int32(),
  entities: Entities,
  favorited: t.bool(),
  retweeted: t.bool(),
  possibly_sensitive: t.optional(t.bool()),
  lang: t.string(),
};

export const Status = t.object('Status', {
  ...statusFields,
  retweeted_status: t.optional(t.object('RetweetedStatus', statusFields)),
});

export type Status = Infer<typeof Status>;
type StatusUser = Infer<typeof StatusUser>;
type Original = NonNullable<Status['retweeted_status']>;

const languages = Object.keys(wordsByLanguage);
const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const sources = [
  '<a href="http://twitter.com/download/iphone" rel="nofollow">Twitter for iPhone</a>',
  '<a href="http://twitter.com/download/android" rel="nofollow">Twitter for Android</a>',
  '<a href="https://mobile.twitter.com" rel="nofollow">Twitter Web App</a>',
  '<a href="https://example.com/scheduler" rel="nofollow">Scheduler</a>',
];
const zones = ['Tokyo', 'Madrid', 'Paris', 'Seoul', 'Beijing', 'Pacific Time (US & Canada)', 'Riyadh'];
const colours = ['C0DEED', '1DA1F2', '000000', 'F5F8FA', 'E81C4F', '19CF86', 'FFAD1F'];
const descriptions = ['dev', 'アニメ好き', 'café ☕ y fútbol ⚽', '음악 🎵', 'photographer 📷', '北京人'];

const pad = (value: number): string => (value < 10 ? ['0', String(value)].join('') : String(value));

/** "Sun Aug 31 00:29:15 +0000 2014": the API's own timestamp text. */
function apiTime(millis: number): string {
  const date = new Date(millis);
  const time = [pad(date.getUTCHours()), pad(date.getUTCMinutes()), pad(date.getUTCSeconds())].join(':');
  return [
    weekdays[date.getUTCDay()],
    months[date.getUTCMonth()],
    pad(date.getUTCDate()),
    time,
    '+0000',
    String(date.getUTCFullYear()),
  ].join(' ');
}

/** A 16-digit id below 2^53 from two draws (one draw has only 32 random bits). */
const bigId = (random: Random): number =>
  random.int(1_000_000_000, 8_999_999_999) * 1_000_000 + random.int(0, 999_999);

const codePointsOf = (text: string): number => [...text].length;

function makeUser(random: Random, index: number): StatusUser {
  const first = random.pick(firstNames);
  const last = random.pick(lastNames);
  // Early accounts have small ids, later ones 16-digit ones, as the real API's do.
  const userId = random.next() < 0.5 ? random.int(10_000, 2_000_000_000) : bigId(random);
  const screen = [first.toLowerCase(), String(index)].join('_');
  const site = random.next() < 0.4 ? link(random) : undefined;
  const language = random.pick(languages);
  const bio = [random.pick(descriptions), random.pick(wordsByLanguage[language] as readonly string[])].join(
    ' ',
  );
  const bioLink = random.next() < 0.1 ? link(random) : undefined;
  const bioStart = codePointsOf(bio) + 1;
  return {
    id: userId,
    id_str: String(userId),
    name: [first, last].join(' '),
    screen_name: screen,
    location: random.next() < 0.3 ? '' : random.pick(cities),
    description: [bio, ...(bioLink === undefined ? [] : [' ', bioLink.url])].join(''),
    url: site === undefined ? null : site.url,
    entities: {
      ...(site === undefined ? {} : { url: { urls: [{ ...site, indices: [0, 23] }] } }),
      // A link in the bio is placed after it, one space on.
      description: {
        urls: bioLink === undefined ? [] : [{ ...bioLink, indices: [bioStart, bioStart + 23] }],
      },
    },
    protected: random.next() < 0.05,
    followers_count: random.int(0, 3_000_000),
    friends_count: random.int(0, 5_000),
    listed_count: random.int(0, 20_000),
    created_at: apiTime(1_200_000_000_000 + random.int(0, 400_000_000) * 1_000),
    favourites_count: random.int(0, 200_000),
    utc_offset: random.next() < 0.3 ? null : random.int(-12, 12) * 3_600,
    time_zone: random.next() < 0.3 ? null : random.pick(zones),
    geo_enabled: random.next() < 0.4,
    verified: random.next() < 0.03,
    statuses_count: random.int(1, 500_000),
    lang: language,
    profile_background_color: random.pick(colours),
    profile_background_image_url:
      random.next() < 0.5
        ? null
        : ['http://abs.example.com/images/themes/theme', String(random.int(1, 19)), '/bg.png'].join(''),
    profile_image_url_https: [
      'https://pbs.example.com/profile_images/',
      String(bigId(random)),
      '/a_normal.jpg',
    ].join(''),
    ...(random.next() < 0.6
      ? {
          profile_banner_url: [
            'https://pbs.example.com/profile_banners/',
            String(userId),
            '/1409',
            String(random.int(100_000, 999_999)),
          ].join(''),
        }
      : {}),
    profile_link_color: random.pick(colours),
    profile_text_color: random.pick(colours),
    profile_use_background_image: random.next() < 0.8,
    default_profile: random.next() < 0.3,
    default_profile_image: random.next() < 0.05,
    following: false,
    follow_request_sent: false,
    notifications: false,
  };
}

/** A fixed pool of authors from its own stream, so that a shorter run is a prefix of a longer one. */
function userPool(seed: number): StatusUser[] {
  const random = seededRandom(seed ^ 0x5eed_0001);
  return Array.from({ length: 300 }, (_, i) => makeUser(random, i));
}

const mentionOf = (user: StatusUser): Mention => ({
  screen_name: user.screen_name,
  name: user.name,
  id: user.id,
  id_str: user.id_str,
});

function makeStatus(
  random: Random,
  users: readonly StatusUser[],
  statusId: number,
  millis: number,
): Original {
  const author = random.pick(users);
  const language = random.next() < 0.5 ? author.lang : random.pick(languages);
  const mentioned = Array.from({ length: random.int(0, 2) }, () => mentionOf(random.pick(users)));
  const reply = random.next() < 0.2 ? random.pick(users) : undefined;
  const replyTo = reply === undefined ? undefined : statusId - random.int(1_000, 9_999_999);
  const { text, hashtags, symbols, user_mentions, urls } = statusText(
    random,
    language,
    random.int(8, 45),
    mentioned,
  );
  const media =
    random.next() < 0.15
      ? [
          (() => {
            const mediaId = bigId(random);
            const target = link(random);
            return {
              id: mediaId,
              id_str: String(mediaId),
              indices: [0, 23],
              media_url_https: ['https://pbs.example.com/media/', String(mediaId), '.jpg'].join(''),
              url: target.url,
              display_url: target.display_url,
              expanded_url: target.expanded_url,
              type: 'photo',
              sizes: {
                thumb: { w: 150, h: 150, resize: 'crop' },
                large: { w: random.int(600, 2048), h: random.int(400, 2048), resize: 'fit' },
              },
            };
          })(),
        ]
      : undefined;
  const located = random.next() < 0.1;
  const lon = Math.round((random.next() * 360 - 180) * 1e6 + 0.5) / 1e6;
  const lat = Math.round((random.next() * 170 - 85) * 1e6 + 0.5) / 1e6;
  const placed = random.next() < 0.15;
  return {
    metadata: { result_type: 'recent', iso_language_code: language },
    created_at: apiTime(millis),
    id: statusId,
    id_str: String(statusId),
    text,
    source: random.pick(sources),
    truncated: false,
    in_reply_to_status_id: replyTo ?? null,
    in_reply_to_status_id_str: replyTo === undefined ? null : String(replyTo),
    in_reply_to_user_id: reply === undefined ? null : reply.id,
    in_reply_to_user_id_str: reply === undefined ? null : reply.id_str,
    in_reply_to_screen_name: reply === undefined ? null : reply.screen_name,
    user: structuredClone(author),
    coordinates: located ? { type: 'Point', coordinates: [lon, lat] } : null,
    place: placed
      ? {
          id: String(random.int(100_000_000, 999_999_999)),
          place_type: 'city',
          name: random.pick(cities),
          full_name: [random.pick(cities), ', ', random.pick(['JP', 'ES', 'FR', 'KR'])].join(''),
          country_code: random.pick(['JP', 'ES', 'FR', 'KR', 'CN', 'SA']),
          bounding_box: {
            type: 'Polygon',
            coordinates: [
              [lon - 0.25, lat - 0.25],
              [lon + 0.25, lat - 0.25],
              [lon + 0.25, lat + 0.25],
              [lon - 0.25, lat + 0.25],
            ],
          },
        }
      : null,
    retweet_count: random.next() < 0.6 ? 0 : random.int(1, 50_000),
    favorite_count: random.next() < 0.5 ? 0 : random.int(1, 100_000),
    entities: { hashtags, symbols, urls, user_mentions, ...(media === undefined ? {} : { media }) },
    favorited: false,
    retweeted: false,
    ...(urls.length > 0 || media !== undefined ? { possibly_sensitive: random.next() < 0.02 } : {}),
    lang: language,
  };
}

export function statuses(count = 1_000, seed = 1): Status[] {
  const users = userPool(seed);
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i): Status => {
    const statusId = 4_000_000_000_000_000 + i * 1_000_003 + random.int(0, 999_999);
    const millis = 1_700_000_000_000 + i * 37_000 + random.int(0, 36_999);
    const status: Status = makeStatus(random, users, statusId, millis);
    if (random.next() < 0.25) {
      // A retweet: its own text quotes the original's, which it carries whole.
      const original = makeStatus(
        random,
        users,
        statusId - random.int(1_000_000, 900_000_000),
        millis - random.int(60_000, 86_400_000),
      );
      const screenName = original.user.screen_name;
      const mention = { ...mentionOf(original.user), indices: [3, 4 + codePointsOf(screenName)] };
      return {
        ...status,
        text: ['RT @', screenName, ': ', original.text].join(''),
        entities: { hashtags: [], symbols: [], urls: [], user_mentions: [mention] },
        retweeted_status: original,
      };
    }
    return status;
  });
}

/** A timeline page: the statuses as one array per call. */
export const statusesDataset: Dataset<Status> = {
  name: 'statuses',
  description: 'API statuses: nested authors, entity arrays, many nullable fields, unicode text; one array',
  schema: Status,
  defaultCount: 1_000,
  unit: 'batch',
  generate: statuses,
};

/** One status per call, as a stream or a single-status endpoint sends them. */
export const statusesEachDataset: Dataset<Status> = {
  ...statusesDataset,
  name: 'statuses-each',
  description: 'API statuses (nested authors, entity arrays, nullable fields), one status per call',
  unit: 'item',
};
