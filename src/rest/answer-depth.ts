/** How deep REST answers nest related records (sofa's depth limit); the tool interface answers the same JSON. */
export const ANSWER_DEPTH = 2;
