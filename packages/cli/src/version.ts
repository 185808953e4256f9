/** The CLI's version, reported by `orchestra --version`. */
export const CLI_VERSION = '0.1.0';
