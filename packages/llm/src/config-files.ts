/**
 * @orchestra/llm/config-files — finding the `orchestra.yaml` files a run
 * would read, without loading the YAML parser or LangChain: what the CLI
 * asks first, to learn whether there is any configuration at all.
 * @packageDocumentation
 */
export { CONFIG_FILE_NAMES, configSearchDirs, findConfigFiles, type ConfigSearch } from './config/discover-config.js';
