import { katibCrd, STATUS, TYPE } from './common';

/** kubeflow.org/v1beta1 Suggestion: the algorithm service an Experiment asks for trial assignments (created by the controller). */
export const suggestionCrd = katibCrd('Suggestion', [
  TYPE,
  STATUS,
  { name: 'Requested', type: 'string', jsonPath: '.spec.requests' },
  { name: 'Assigned', type: 'string', jsonPath: '.status.suggestionCount' },
]);
