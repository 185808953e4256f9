import { useEffect, useRef } from 'preact/hooks';

/**
 * The SVG from `GET /pipelines/{id}/graph`, parsed as SVG and put in the
 * page (never any other text: everything else is rendered as text). Scripts,
 * foreign objects, event-handler attributes and javascript: links are dropped
 * on the way, should the server ever send any.
 */
function importSvg(text: string): SVGSVGElement | null {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const root = doc.documentElement;
  if (root.nodeName.toLowerCase() !== 'svg' || doc.getElementsByTagName('parsererror').length > 0) return null;
  for (const bad of Array.from(root.querySelectorAll('script, foreignObject, iframe, object, embed'))) bad.remove();
  for (const element of [root, ...Array.from(root.querySelectorAll('*'))]) {
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith('on') || (name.endsWith('href') && /^\s*javascript:/i.test(attribute.value))) element.removeAttribute(attribute.name);
    }
  }
  const svg = document.importNode(root, true) as unknown as SVGSVGElement;
  svg.setAttribute('role', 'img');
  svg.setAttribute('focusable', 'false');
  return svg;
}

const LEGEND: [state: string, label: string][] = [
  ['pending', 'not reached'],
  ['current', 'current'],
  ['completed', 'completed'],
  ['failed', 'failed'],
];

export function PipelinePicture({ svg, error, pipeline, current }: { svg: string | null; error: string | null; pipeline: string; current: string | null }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = holder.current;
    if (!box) return;
    const picture = svg ? importSvg(svg) : null;
    if (picture) {
      picture.setAttribute('aria-label', `The pipeline ${pipeline}, each node coloured by its state${current ? `; now at ${current}` : ''}`);
      box.replaceChildren(picture);
    } else box.replaceChildren();
  }, [svg, pipeline, current]);
  return (
    <figure class="picture">
      <div class="picture-svg" ref={holder} data-testid="pipeline-picture" />
      {svg === null && !error && <p class="muted">Drawing the pipeline…</p>}
      {error && <p class="error">No picture: {error}</p>}
      <figcaption>
        <ul class="legend" aria-label="Colours">
          {LEGEND.map(([state, label]) => (
            <li key={state}>
              <span class={`swatch swatch-${state}`} aria-hidden="true" />
              {label}
            </li>
          ))}
        </ul>
        {current && (
          <p class="now">
            Now at <code>{current}</code>
          </p>
        )}
      </figcaption>
    </figure>
  );
}
