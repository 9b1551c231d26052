/**
 * Names the translated chat's message `index` as the Responses request has it: `instructions`,
 * `input` (a string input), `input[i]` (an item of this request's input, which comes after
 * `firstInput` items of earlier turns), or the earlier turn previous_response_id stands for.
 * `origins` are chatMessageOrigins: each message's item index in the turn's history.
 */
export function messageOrigin(origins: number[], firstInput: number, stringInput: boolean): (index: number) => string {
  return (index) => {
    const item = origins[index];
    if (item === undefined) return `messages[${index}]`;
    if (item < 0) return "instructions";
    if (item < firstInput) return "previous_response_id (an earlier turn)";
    return stringInput ? "input" : `input[${item - firstInput}]`;
  };
}
