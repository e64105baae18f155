// How each room design (spec 001: twelve) looks on the stage: which backdrop
// is drawn (Backdrop.tsx, plain SVG: no images to download), its colours, the
// shape of the stage and the lights. The two UA designs are the club and the
// barn in Ukraine's blue and yellow. A design the table does not know (a newer
// server) is drawn as the club.
import type { RoomDesign } from '../api/types';

export type BackdropKind =
  | 'club'
  | 'barn'
  | 'festival'
  | 'stadium'
  | 'theater'
  | 'tomorrowland'
  | 'underground'
  | 'yacht'
  | 'ferry'
  | 'lounge';

/** The stage the DJs stand on. */
export type StageShape = 'riser' | 'planks' | 'truss' | 'platform' | 'proscenium' | 'arch' | 'crates' | 'deck' | 'pier' | 'rug';

/** What moves while a song plays (nothing under prefers-reduced-motion). */
export type Lights = 'beams' | 'lanterns' | 'sun' | 'floods' | 'footlights' | 'fireworks' | 'bulb' | 'sparkle' | 'dusk' | 'lamp';

export interface DesignLook {
  backdrop: BackdropKind;
  stage: StageShape;
  lights: Lights;
  /** The back wall or sky, top to bottom. */
  sky: [string, string];
  /** The floor the audience stands on, back to front. */
  floor: [string, string];
  /** The stage's own colour. */
  stageColor: string;
  /** Lights, trims and signs. */
  accent: string;
  accent2: string;
  /** Name tags on the floor: light text on dark tags unless the floor is bright. */
  brightFloor: boolean;
  /** Ukraine's flag in the drawing (the UA designs). */
  flag: boolean;
}

const UA_BLUE = '#0057B7';
const UA_YELLOW = '#FFD700';

export const DESIGN_LOOKS: Record<RoomDesign, DesignLook> = {
  CLUB: {
    backdrop: 'club',
    stage: 'riser',
    lights: 'beams',
    sky: ['#12061F', '#3B0764'],
    floor: ['#1E1033', '#0B0614'],
    stageColor: '#1F1F2E',
    accent: '#A855F7',
    accent2: '#22D3EE',
    brightFloor: false,
    flag: false,
  },
  CLUB_UA: {
    backdrop: 'club',
    stage: 'riser',
    lights: 'beams',
    sky: ['#031A3D', UA_BLUE],
    floor: ['#0B2447', '#050E1F'],
    stageColor: '#13213A',
    accent: UA_YELLOW,
    accent2: '#4FA3FF',
    brightFloor: false,
    flag: true,
  },
  BARN: {
    backdrop: 'barn',
    stage: 'planks',
    lights: 'lanterns',
    sky: ['#5C2410', '#8A3A16'],
    floor: ['#A0703A', '#6B4420'],
    stageColor: '#7A4A22',
    accent: '#FCD34D',
    accent2: '#F97316',
    brightFloor: false,
    flag: false,
  },
  BARN_UA: {
    backdrop: 'barn',
    stage: 'planks',
    lights: 'lanterns',
    sky: ['#4A2A14', '#6E4320'],
    floor: ['#C9A227', '#8C6A14'],
    stageColor: '#6E4A26',
    accent: UA_YELLOW,
    accent2: UA_BLUE,
    brightFloor: true,
    flag: true,
  },
  CHAT_ONLY: {
    backdrop: 'lounge',
    stage: 'rug',
    lights: 'lamp',
    sky: ['#2A2433', '#3D3347'],
    floor: ['#4A3B32', '#2E241E'],
    stageColor: '#7C2D4F',
    accent: '#F9A8D4',
    accent2: '#FDE68A',
    brightFloor: false,
    flag: false,
  },
  FERRY_BUILDING: {
    backdrop: 'ferry',
    stage: 'pier',
    lights: 'dusk',
    sky: ['#3B2E5A', '#F59E0B'],
    floor: ['#9CA3AF', '#6B7280'],
    stageColor: '#57534E',
    accent: '#FDE68A',
    accent2: '#F97316',
    brightFloor: true,
    flag: false,
  },
  FESTIVAL: {
    backdrop: 'festival',
    stage: 'truss',
    lights: 'sun',
    sky: ['#0C4A6E', '#F97316'],
    floor: ['#4D7C0F', '#1A2E05'],
    stageColor: '#27272A',
    accent: '#FACC15',
    accent2: '#F472B6',
    brightFloor: false,
    flag: false,
  },
  STADIUM: {
    backdrop: 'stadium',
    stage: 'platform',
    lights: 'floods',
    sky: ['#020617', '#1E3A8A'],
    floor: ['#15803D', '#14532D'],
    stageColor: '#1F2937',
    accent: '#F8FAFC',
    accent2: '#38BDF8',
    brightFloor: false,
    flag: false,
  },
  THEATER: {
    backdrop: 'theater',
    stage: 'proscenium',
    lights: 'footlights',
    sky: ['#1C0A0A', '#3F0D0D'],
    floor: ['#292524', '#0C0A09'],
    stageColor: '#5B3A1E',
    accent: '#B91C1C',
    accent2: '#EAB308',
    brightFloor: false,
    flag: false,
  },
  TOMORROWLAND: {
    backdrop: 'tomorrowland',
    stage: 'arch',
    lights: 'fireworks',
    sky: ['#2E1065', '#DB2777'],
    floor: ['#312E81', '#1E1B4B'],
    stageColor: '#4C1D95',
    accent: '#F0ABFC',
    accent2: '#FDE047',
    brightFloor: false,
    flag: false,
  },
  UNDERGROUND: {
    backdrop: 'underground',
    stage: 'crates',
    lights: 'bulb',
    sky: ['#1C1917', '#44403C'],
    floor: ['#292524', '#0C0A09'],
    stageColor: '#3F3F46',
    accent: '#84CC16',
    accent2: '#FB923C',
    brightFloor: false,
    flag: false,
  },
  YACHT: {
    backdrop: 'yacht',
    stage: 'deck',
    lights: 'sparkle',
    sky: ['#38BDF8', '#E0F2FE'],
    floor: ['#D6B98C', '#A4835A'],
    stageColor: '#F8FAFC',
    accent: '#0369A1',
    accent2: '#F43F5E',
    brightFloor: true,
    flag: false,
  },
};

export function designLook(design: string | undefined): DesignLook {
  return (design && (DESIGN_LOOKS as Record<string, DesignLook>)[design]) || DESIGN_LOOKS.CLUB;
}

/** The design a room is drawn as: its own when the table knows it, else CLUB. */
export function drawnDesign(design: string | undefined): RoomDesign {
  return design && design in DESIGN_LOOKS ? (design as RoomDesign) : 'CLUB';
}
