// Attribute inputs of a mint form → `data.attributes` keyed by attribute name.
import { attributeValue } from '../../client/attribute-value';
import type { AttributeSchema } from '../../client/types';

export function attributesFromForm(schema: Record<string, AttributeSchema>, values: Record<string, string | boolean>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [index, attribute] of Object.entries(schema)) {
    const name = attribute.name._;
    const value = values[index];
    if (typeof value === 'boolean') {
      if (value || !attribute.optional) out[name] = value;
      continue;
    }
    if (value === undefined || value === '') continue;
    try {
      // A single enum value comes from a select as its key (the service accepts the index).
      out[name] = attribute.enumValues && !attribute.isArray ? Number(value) : attributeValue(attribute, value);
    } catch (error) {
      throw new Error(`${name}: ${(error as Error).message}`);
    }
  }
  return out;
}
