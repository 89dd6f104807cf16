/**
 * `catalog`: a ticketing catalog keyed by ids, the shape of the `citm_catalog.json` of JSON
 * benchmark corpora (generated here): each catalog holds 1,000-3,000 events and a few hundred
 * areas, seat categories and topics, each in an object keyed by the numeric id (maps with
 * thousands of entries and small values: a name, a list of ids), plus an array of performances
 * with prices and seat plans. One catalog is ~0.5-1.1 MB of JSON. The schema is the one `inferSchema`
 * gives for catalogs as JSON, with the integer-keyed objects as maps, except `venueNames`, whose
 * keys are venue codes: inference keeps those as fields (test/lab/datasets/shapes.test.ts).
 */
import { type Infer, t } from '../../schema/index.js';
import { type Random, seededRandom } from '../random.js';
import type { Dataset } from './dataset.js';
import { words } from './text.js';

const names = () => t.map(t.string(), t.string());
const ids = () => t.array(t.int32());

export const Catalog = t.object('Catalog', {
  areaNames: names(),
  audienceSubCategoryNames: names(),
  blockNames: names(),
  events: t.map(
    t.string(),
    t.object('EventsValue', {
      description: t.nullable(t.string()),
      id: t.int32(),
      logo: t.nullable(t.string()),
      name: t.string(),
      subTopicIds: ids(),
      subjectCode: t.nullable(t.string()),
      subtitle: t.nullable(t.string()),
      topicIds: ids(),
    }),
  ),
  performances: t.array(
    t.object('PerformancesItem', {
      eventId: t.int32(),
      id: t.int32(),
      logo: t.nullable(t.string()),
      name: t.nullable(t.string()),
      prices: t.array(
        t.object('PricesItem', {
          amount: t.int32(),
          audienceSubCategoryId: t.int32(),
          seatCategoryId: t.int32(),
        }),
      ),
      seatCategories: t.array(
        t.object('SeatCategoriesItem', {
          areas: t.array(t.object('AreasItem', { areaId: t.int32(), blockIds: ids() })),
          seatCategoryId: t.int32(),
        }),
      ),
      seatMapImage: t.nullable(t.string()),
      start: t.int64({ as: 'number' }),
      venueCode: t.string(),
    }),
  ),
  seatCategoryNames: names(),
  subTopicNames: names(),
  subjectNames: names(),
  topicNames: names(),
  topicSubTopics: t.map(t.string(), ids()),
  venueNames: names(),
});

export type Catalog = Infer<typeof Catalog>;

// Names in the catalog's own language, accents and all, as a French box office writes them.
const nameWords: readonly string[] = Object.freeze(
  `Orchestre Philharmonique de Radio France Récital Quatuor Ébène Opéra Théâtre Châtelet Musique
    amplifiée Jeune public Danse contemporaine Chœur Symphonie Concerto Festival Parterre Balcon
    Loge Arrière-scène central côté jardin cour Première catégorie Deuxième Abonné Tarif réduit
    Génération Soirée Matinée Baroque Jazz Musiques du monde Grande salle Amphithéâtre`
    .trim()
    .split(/\s+/),
);
const venues = [
  ['PLEYEL_PLEYEL', 'Salle Pleyel'],
  ['OLYMPIA_PARIS', "L'Olympia"],
  ['CHATELET_GRANDE', 'Théâtre du Châtelet'],
  ['GAVEAU_SALLE', 'Salle Gaveau'],
  ['PHILHARMONIE_1', 'Philharmonie, Grande salle'],
  ['BATACLAN_PARIS', 'Le Bataclan'],
] as const;

/** `count` distinct ids from `base`, ascending with gaps, as a database's sequence leaves them. */
function idRange(random: Random, base: number, count: number): number[] {
  const out: number[] = [];
  let next = base;
  for (let i = 0; i < count; i++) {
    next += random.int(1, 9);
    out.push(next);
  }
  return out;
}

const label = (random: Random, count: number): string => words(random, nameWords, count);

function namesOf(random: Random, keys: readonly number[], length: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) out[String(key)] = label(random, random.int(1, length));
  return out;
}

const some = <T>(random: Random, items: readonly T[], min: number, max: number): T[] =>
  Array.from({ length: random.int(min, max) }, () => random.pick(items));

function makeCatalog(random: Random): Catalog {
  const eventCount = random.int(1_000, 3_000);
  const areas = idRange(random, 205_705_000, random.int(100, 400));
  const audiences = idRange(random, 337_100_000, random.int(5, 20));
  const blocks = idRange(random, 205_706_000, random.int(0, 40));
  const seats = idRange(random, 338_937_000, random.int(50, 300));
  const subTopics = idRange(random, 337_184_000, random.int(20, 80));
  const subjects = idRange(random, 337_190_000, random.int(0, 10));
  const topics = idRange(random, 107_888_000, random.int(5, 20));
  const eventIds = idRange(random, 138_586_000, eventCount);
  const topicSubTopics: Record<string, number[]> = {};
  for (const topic of topics) topicSubTopics[String(topic)] = some(random, subTopics, 1, 12);
  const events: Catalog['events'] = {};
  for (const eventId of eventIds) {
    events[String(eventId)] = {
      description: random.next() < 0.8 ? null : label(random, random.int(5, 20)),
      id: eventId,
      logo: random.next() < 0.6 ? null : ['/images/UE0AAAAACEKo6QAAAAZDSVRN', String(eventId)].join(''),
      name: label(random, random.int(2, 6)),
      subTopicIds: some(random, subTopics, 1, 4),
      subjectCode: random.next() < 0.95 ? null : String(random.int(100, 999)),
      subtitle: random.next() < 0.85 ? null : label(random, random.int(2, 5)),
      topicIds: some(random, topics, 1, 3),
    };
  }
  const [venueCode] = random.pick(venues);
  const performanceIds = idRange(random, 339_887_000, Math.round(eventCount / 6));
  const performances = performanceIds.map((performanceId) => {
    const seatCategoryIds = some(random, seats, 1, 5);
    return {
      eventId: random.pick(eventIds),
      id: performanceId,
      logo: random.next() < 0.7 ? null : ['/images/UE0AAAAACEKo6QAAAAZDSVRN', String(performanceId)].join(''),
      name: random.next() < 0.9 ? null : label(random, random.int(2, 5)),
      prices: seatCategoryIds.map((seatCategoryId) => ({
        amount: random.int(10, 250) * 50,
        audienceSubCategoryId: random.pick(audiences),
        seatCategoryId,
      })),
      seatCategories: seatCategoryIds.map((seatCategoryId) => ({
        areas: some(random, areas, 1, 4).map((areaId) => ({
          areaId,
          blockIds: blocks.length > 0 && random.next() < 0.2 ? some(random, blocks, 1, 3) : [],
        })),
        seatCategoryId,
      })),
      seatMapImage:
        random.next() < 0.9 ? null : ['/images/seatmaps/', String(performanceId), '.png'].join(''),
      start: 1_372_700_000_000 + random.int(0, 31_536_000) * 1_000,
      venueCode,
    };
  });
  const venueNames: Record<string, string> = {};
  for (const [code, name] of some(random, venues, 1, 3)) venueNames[code] = name;
  venueNames[venueCode] = venues.find(([code]) => code === venueCode)?.[1] ?? venueCode;
  return {
    areaNames: namesOf(random, areas, 4),
    audienceSubCategoryNames: namesOf(random, audiences, 2),
    blockNames: namesOf(random, blocks, 2),
    events,
    performances,
    seatCategoryNames: namesOf(random, seats, 3),
    subTopicNames: namesOf(random, subTopics, 3),
    subjectNames: namesOf(random, subjects, 3),
    topicNames: namesOf(random, topics, 2),
    topicSubTopics,
    venueNames,
  };
}

export function catalogs(count = 8, seed = 1): Catalog[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => makeCatalog(random));
}

/** The catalogs as one array per call. */
export const catalogDataset: Dataset<Catalog> = {
  name: 'catalog',
  description: 'event catalogs keyed by numeric ids: maps of 1,000-3,000 events, names and id lists',
  schema: Catalog,
  defaultCount: 4,
  unit: 'batch',
  generate: catalogs,
};

/** One catalog per call, as an API serves the whole catalog. */
export const catalogEachDataset: Dataset<Catalog> = {
  ...catalogDataset,
  name: 'catalog-each',
  description: 'event catalogs keyed by numeric ids, one catalog (0.5-1.1 MB of JSON) per call',
  unit: 'item',
};
