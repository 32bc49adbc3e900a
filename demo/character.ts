/** The "your own character" page: not written yet (the nav links to it). */
export {};
