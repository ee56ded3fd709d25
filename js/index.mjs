// The ES module face of index.js.
import robotsParser from './index.js';

export default robotsParser;
export const { forStatus, Robots, alive } = robotsParser;
export { robotsParser };
