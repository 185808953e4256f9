import { DEFAULT_HANDLER_TYPE, SHAPE_HANDLER_TYPES, nodeShape, resolveHandlerType } from '../graph/handler-types.js';
import type { GraphNode } from '../graph/model.js';
import type { Handler } from './handler.js';

/** Maps handler type strings to handlers (spec §4.2). Custom handlers register like built-ins. */
export class HandlerRegistry {
  private readonly handlers = new Map<string, Handler>();

  /** Registers (or replaces) the handler of a type. */
  register(type: string, handler: Handler): this {
    this.handlers.set(type, handler);
    return this;
  }

  /** The handler registered for a type, if any. */
  get(type: string): Handler | undefined {
    return this.handlers.get(type);
  }

  /** A copy with the same handlers (registering on it leaves this one alone). */
  clone(): HandlerRegistry {
    const copy = new HandlerRegistry();
    for (const [type, handler] of this.handlers) copy.register(type, handler);
    return copy;
  }

  /** Every registered type (what the `type_known` lint rule accepts). */
  types(): string[] {
    return [...this.handlers.keys()];
  }

  /**
   * The handler for a node: its explicit `type`, else its shape's type, else
   * the default (`codergen`) for shapes that name no handler type. A node
   * whose type or shape names a handler that is not registered gets none (a
   * `hexagon` human gate must never run as an LLM stage); the engine refuses
   * such a pipeline before it starts.
   */
  resolve(node: GraphNode): { type: string; handler: Handler } | undefined {
    const type = resolveHandlerType(node);
    const handler = this.handlers.get(type);
    if (handler) return { type, handler };
    const named = !!node.attributes.type || Object.hasOwn(SHAPE_HANDLER_TYPES, nodeShape(node));
    const fallback = this.handlers.get(DEFAULT_HANDLER_TYPE);
    return fallback && !named ? { type: DEFAULT_HANDLER_TYPE, handler: fallback } : undefined;
  }
}
