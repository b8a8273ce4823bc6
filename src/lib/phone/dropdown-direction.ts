/** Below this much free space under the phone field, the country list opens upward (spec §4). */
export const MIN_SPACE_BELOW_PX = 200;

/** 'down' unless less than 200 px are free between the field's bottom edge and the viewport's bottom. */
export function dropdownDirection(fieldRect: { bottom: number }, viewportHeight: number): 'up' | 'down' {
  return viewportHeight - fieldRect.bottom < MIN_SPACE_BELOW_PX ? 'up' : 'down';
}
