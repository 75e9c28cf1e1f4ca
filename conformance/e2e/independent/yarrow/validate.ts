// Symfony Validator-style constraints: every violation is collected and listed in error.detail as
// "property: message" (API Platform's ConstraintViolationList rendering), separated by "; ".
import { ApiError } from './http-util.ts';

export class Violations {
  list: string[] = [];
  string(body: Record<string, unknown>, field: string, min: number, max: number, required = true): string | undefined {
    const v = body[field];
    if (v === undefined || (v === null && required)) {
      if (required) this.list.push(`${field}: This value should not be blank.`);
      return undefined;
    }
    if (typeof v !== 'string') {
      this.list.push(`${field}: This value should be of type string.`);
      return undefined;
    }
    this.length(field, v, min, max);
    return v;
  }
  length(field: string, v: string, min: number, max: number): void {
    const n = [...v].length;
    if (n < min) this.list.push(`${field}: This value is too short. It should have ${min} characters or more.`);
    if (n > max) this.list.push(`${field}: This value is too long. It should have ${max} characters or less.`);
  }
  choice(field: string, v: string | undefined, choices: string[]): void {
    if (v !== undefined && !choices.includes(v)) {
      this.list.push(`${field}: The value you selected is not a valid choice. Choose one of: ${choices.join(', ')}.`);
    }
  }
  throwIfAny(): void {
    if (this.list.length) {
      const e = new ApiError(
        'invalid_request',
        this.list.join('; '),
        'Check the request against the published description (openapi.json).',
      );
      e.violations = this.list.map((l) => ({
        propertyPath: l.slice(0, l.indexOf(':')),
        message: l.slice(l.indexOf(':') + 2),
      }));
      throw e;
    }
  }
}
