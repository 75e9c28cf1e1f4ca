import { z } from 'zod';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export const Environment = z.enum(ENVIRONMENTS).meta({ id: 'Environment' });
export type Environment = z.infer<typeof Environment>;
