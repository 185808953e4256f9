import { MemoryRunCatalogue } from '../src/index.js';
import { runCatalogueConformance } from '../src/run-store-conformance.js';

runCatalogueConformance('MemoryRunCatalogue', () => {
  const catalogue = new MemoryRunCatalogue();
  return { catalogue, cleanup: () => catalogue.dispose() };
});
