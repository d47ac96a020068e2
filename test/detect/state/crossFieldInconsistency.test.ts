import { crossFieldInconsistency } from '../../../src/detect/detectors/state/crossFieldInconsistency.js';
import { makeTrace, state } from '../../helpers/traceBuilder.js';
import { testDetector } from '../tester.js';

testDetector(crossFieldInconsistency, {
  valid: [
    {
      name: 'equal dates (a one-day trip)',
      trace: makeTrace([state({ start_date: '2025-05-01', end_date: '2025-05-01' })]),
    },
    { name: 'ordered numbers', trace: makeTrace([state({ min: 1, max: 2, min_x: -5, max_x: 5 })]) },
    {
      name: 'from/to that are not dates',
      trace: makeTrace([state({ from: 'zoe@example.com', to: 'adam@example.com' })]),
    },
    { name: 'from/to numbers are not compared', trace: makeTrace([state({ from: 10, to: 2 })]) },
    {
      name: 'unrelated keys with the same words',
      trace: makeTrace([state({ starter: 9, ender: 1, minute: 50, maximum_retries: 3 })]),
    },
    { name: 'values of different kinds', trace: makeTrace([state({ start: '2025-01-02', end: 5 })]) },
  ],
  invalid: [
    {
      name: 'nested check-in after check-out, reported when it appears, not again while it persists',
      trace: makeTrace([
        state({ booking: { checkIn: '2025-05-01', checkOut: '2025-05-03' } }),
        state({ booking: { checkIn: '2025-05-04', checkOut: '2025-05-03' } }),
        state({ booking: { checkIn: '2025-05-04', checkOut: '2025-05-03' }, note: 'x' }),
      ]),
      signals: [
        {
          steps: [2],
          severity: 'high',
          confidence: 0.88,
          message: 'booking.checkIn ("2025-05-04") is later than booking.checkOut ("2025-05-03")',
        },
      ],
    },
    {
      name: 'min above max by one',
      trace: makeTrace([state({ budget: { min_x: 11, max_x: 10 } })]),
      signals: [
        { steps: [1], confidence: 0.85, message: 'budget.min_x (11) is greater than budget.max_x (10)' },
      ],
    },
    {
      name: 'camelCase times and dates inside arrays, and from/to dates',
      trace: makeTrace([
        state({
          slots: [{ startTime: '18:00', endTime: '09:00' }],
          valid_from: '2025-02-01T00:00:00Z',
          valid_to: '2025-01-01T00:00:00Z',
        }),
      ]),
      signals: [
        { message: 'valid_from' },
        { message: 'slots[0].startTime ("18:00") is later than slots[0].endTime ("09:00")' },
      ],
    },
  ],
});
