import { deliveryLogged } from './webhooks-delivery-log.ts';
import { subscribedEvent } from './webhooks-event.ts';
import { redelivery } from './webhooks-redelivery.ts';
import { deliveryArrives, registration, secretOnce } from './webhooks-registration.ts';
import { signature, timestamp } from './webhooks-signature.ts';

// The webhook checks live in one file per concern; this module keeps the original names and order.
export { deliveryArrives, deliveryLogged, redelivery, registration, secretOnce, signature, subscribedEvent, timestamp };

export const webhookChecks = [
  registration,
  secretOnce,
  deliveryArrives,
  signature,
  timestamp,
  subscribedEvent,
  deliveryLogged,
  redelivery,
];
