/**
 * The bound on what one parse may build: every declaration (message, field, enum value, option,
 * reserved range...) and every value inside an option's aggregate counts one node, and the parse
 * stops with an error at the first node past the limit, so a hostile text costs at most that many
 * nodes of work and memory whatever its length.
 */
import type { ProtoPosition } from './ast.js';
import { protoError } from './errors.js';

export class ParseBudget {
  private used = 0;

  constructor(readonly maxNodes: number) {}

  get nodes(): number {
    return this.used;
  }

  count(at: ProtoPosition): void {
    this.used++;
    if (this.used > this.maxNodes) {
      protoError(`the file declares more than ${this.maxNodes} nodes (types, fields, values, options)`, at);
    }
  }
}
