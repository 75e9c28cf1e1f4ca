// Bean Validation, by hand: @NotNull, @Size (in characters, not bytes or UTF-16 units), enumerations.
import { invalid } from './http-kit.ts';
import { ENVIRONMENTS } from './options.ts';

function chars(s: string): number {
  return [...s].length;
}

export function text(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  required = true,
): string | undefined {
  const v = body[field];
  if (v === undefined) {
    if (!required) return undefined;
    throw invalid(
      'Validation failed',
      `${field}: must not be null`,
      `Send ${field} as a string of ${min} to ${max} characters.`,
    );
  }
  if (typeof v !== 'string')
    throw invalid(
      'Validation failed',
      `${field}: must be a string`,
      `Send ${field} as a string of ${min} to ${max} characters.`,
    );
  const n = chars(v);
  if (n < min || n > max)
    throw invalid(
      'Validation failed',
      `${field}: size must be between ${min} and ${max}`,
      `Send ${field} with ${min} to ${max} characters.`,
    );
  return v;
}

export function environment(body: Record<string, unknown>, required: boolean): string | undefined {
  const v = body.environment;
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
    throw invalid(
      'Validation failed',
      `environment: must be one of ${ENVIRONMENTS.join(', ')}`,
      'Use one of the Environment values.',
    );
  }
  return v;
}

export function textList(
  body: Record<string, unknown>,
  field: string,
  minItems: number,
  maxItems: number,
  min: number,
  max: number,
): string[] {
  const v = body[field];
  if (!Array.isArray(v))
    throw invalid(
      'Validation failed',
      `${field}: must be an array of strings`,
      `Send ${field} as ${minItems} to ${maxItems} strings.`,
    );
  if (v.length < minItems || v.length > maxItems) {
    throw invalid(
      'Validation failed',
      `${field}: size must be between ${minItems} and ${maxItems}`,
      `Send ${minItems} to ${maxItems} entries.`,
    );
  }
  v.forEach((item, i) => {
    if (typeof item !== 'string' || chars(item) < min || chars(item) > max) {
      throw invalid(
        'Validation failed',
        `${field}[${i}]: must be a string of ${min} to ${max} characters`,
        `Send every entry of ${field} with ${min} to ${max} characters.`,
      );
    }
  });
  return v as string[];
}
