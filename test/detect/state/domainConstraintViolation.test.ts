import { domainConstraintViolation } from '../../../src/detect/detectors/state/domainConstraintViolation.js';
import { makeTrace, state } from '../../helpers/traceBuilder.js';
import { testDetector } from '../tester.js';

testDetector(domainConstraintViolation, {
  valid: [
    {
      name: 'values at the edges of their domains',
      trace: makeTrace([
        state({
          age: 150,
          patientAge: 0,
          unit_price: 0,
          total: '12.50',
          progress_pct: 100,
          contact_email: 'a@b.co',
          homepage_url: 'https://example.com/x?y=1',
        }),
      ]),
    },
    {
      name: 'missing values are not invalid',
      trace: makeTrace([state({ email: '', url: null, price: null })]),
    },
    {
      name: 'fields whose last word is not a rule name',
      trace: makeTrace([state({ age_group: -1, price_change: -5, url_path: '/x' })]),
    },
  ],
  invalid: [
    {
      name: 'each rule just past its edge (top-level fields first, then nested objects)',
      trace: makeTrace([
        state({
          age: 151,
          order: { unit_price: -0.01 },
          progress_pct: 100.5,
          contact_email: 'bob@',
          homepage_url: 'not a url',
        }),
      ]),
      signals: [
        {
          steps: [1],
          severity: 'medium',
          confidence: 0.85,
          message: 'age is 151: an age must be between 0 and 150',
        },
        { message: 'progress_pct is 100.5' },
        { message: 'contact_email is "bob@": it is not a valid e-mail address', confidence: 0.75 },
        { message: 'homepage_url is "not a url"' },
        { message: 'order.unit_price is -0.01: it must not be negative' },
      ],
    },
    {
      name: 'reported when it appears and when it reappears, not while it persists',
      trace: makeTrace([
        state({ price: -1 }),
        state({ price: -1 }),
        state({ price: 3 }),
        state({ price: -1 }),
      ]),
      signals: [{ steps: [1] }, { steps: [4] }],
    },
    {
      name: 'custom field list and max age',
      trace: makeTrace([state({ balance: -3, age: 121 })]),
      config: { non_negative_fields: ['balance'], max_age: 120 },
      signals: [{ message: 'balance' }, { message: 'between 0 and 120' }],
    },
  ],
});
