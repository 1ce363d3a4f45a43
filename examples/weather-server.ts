/**
 * A weather server over stdio: a tool declared with zod (typed arguments, structured
 * output, progress), a resource, a resource template with completion, and a prompt.
 *
 * Run: `npm run build && npx tsx examples/weather-server.ts` — or point any MCP host at
 * that command. The forecasts are made up, deterministically, from the city's name.
 */
import { McpServer, WireError } from 'mcpkit';
import { StdioServerTransport } from 'mcpkit/stdio';
import { z } from 'zod';

const STATIONS: Record<string, { city: string; elevation: number }> = {
  ENGM: { city: 'Oslo', elevation: 208 },
  SPJC: { city: 'Lima', elevation: 34 },
  RJTT: { city: 'Tokyo', elevation: 6 },
};
const SKIES = ['sunny', 'cloudy', 'rainy', 'snowy'] as const;

/** A made-up but stable forecast: the same city and day always give the same weather. */
function forecastDay(city: string, day: number): { day: number; high: number; low: number; sky: string } {
  let seed = day;
  for (const ch of city.toLowerCase()) seed = (seed * 31 + ch.charCodeAt(0)) % 9973;
  const high = 5 + (seed % 25);
  return { day, high, low: high - 4 - (seed % 5), sky: SKIES[seed % SKIES.length]! };
}

const server = new McpServer(
  { name: 'weather', version: '1.0.0' },
  { instructions: 'Forecasts for any city. Read weather://stations for the known stations.' },
);

server.tool(
  {
    name: 'forecast',
    title: 'Weather forecast',
    description: 'The forecast for a city, for 1 to 7 days',
    input: z.object({
      city: z.string().min(1).describe('City name, e.g. Oslo'),
      days: z.number().int().min(1).max(7).default(3),
      units: z.enum(['celsius', 'fahrenheit']).default('celsius'),
    }),
    output: z.object({
      city: z.string(),
      units: z.enum(['celsius', 'fahrenheit']),
      days: z.array(z.object({ day: z.number().int(), high: z.number(), low: z.number(), sky: z.string() })),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  // `days` and `units` are typed from the schema, defaults already applied.
  async ({ city, days, units }, ctx) => {
    const convert = (c: number) => (units === 'celsius' ? c : Math.round((c * 9) / 5 + 32));
    const list = [];
    for (let day = 1; day <= days; day++) {
      ctx.progress(day, days, `Day ${day} of ${days}`);
      const f = forecastDay(city, day);
      list.push({ ...f, high: convert(f.high), low: convert(f.low) });
    }
    const unit = units === 'celsius' ? '°C' : '°F';
    const text = list.map((d) => `Day ${d.day}: ${d.sky}, ${d.low}–${d.high}${unit}`).join('\n');
    return {
      content: [{ type: 'text', text: `${city}\n${text}` }],
      structuredContent: { city, units, days: list },
    };
  },
);

server.resource(
  {
    uri: 'weather://stations',
    name: 'Stations',
    description: 'Known weather stations',
    mimeType: 'application/json',
  },
  (uri) => [{ uri, mimeType: 'application/json', text: JSON.stringify(STATIONS, null, 2) }],
);

server.resourceTemplate(
  {
    uriTemplate: 'weather://stations/{id}',
    name: 'Station',
    description: 'One weather station by its ICAO code',
    mimeType: 'application/json',
    complete: { id: (typed) => Object.keys(STATIONS).filter((id) => id.startsWith(typed.toUpperCase())) },
  },
  (uri, { id }) => {
    const station = STATIONS[String(id)];
    if (!station) throw WireError.invalidParams(`No station ${String(id)}; see weather://stations`);
    return [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, ...station }) }];
  },
);

server.prompt(
  {
    name: 'what-to-wear',
    description: 'Asks the model what to wear, given the forecast',
    arguments: [
      {
        name: 'city',
        required: true,
        complete: (typed) =>
          Object.values(STATIONS)
            .map((s) => s.city)
            .filter((c) => c.startsWith(typed)),
      },
    ],
  },
  ({ city = '' }) => {
    const today = forecastDay(city, 1);
    return [
      {
        role: 'user',
        content: {
          type: 'text',
          text: `Tomorrow in ${city}: ${today.sky}, ${today.low}–${today.high}°C. What should I wear?`,
        },
      },
    ];
  },
);

await server.connect(new StdioServerTransport());
// stdout carries MCP messages only: talk to humans on stderr.
console.error('weather server ready on stdio');
