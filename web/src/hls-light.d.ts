// hls.js ships its light build (no DRM, subtitles or alternate audio; AES-128
// and MPEG-TS are in) without its own declaration: it has the full build's API.
declare module 'hls.js/light' {
  import Hls from 'hls.js';
  export default Hls;
}
