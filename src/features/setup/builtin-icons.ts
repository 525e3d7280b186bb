import {
  Building2Icon,
  ChartBarIcon,
  CodeIcon,
  CpuIcon,
  CrownIcon,
  FileTextIcon,
  GemIcon,
  LayoutTemplateIcon,
  MessageCircleIcon,
  MicroscopeIcon,
  PaletteIcon,
  PenToolIcon,
  ScaleIcon,
  SettingsIcon,
  SparklesIcon,
  TrendingUpIcon,
  WrenchIcon,
  type LucideIcon,
} from "lucide-react";

// The built-ins name their icons as strings (convex/lib/builtins.ts stays free of React).
const ICONS: Readonly<Record<string, LucideIcon>> = {
  Building2: Building2Icon,
  ChartBar: ChartBarIcon,
  Code: CodeIcon,
  Cpu: CpuIcon,
  Crown: CrownIcon,
  FileText: FileTextIcon,
  Gem: GemIcon,
  MessageCircle: MessageCircleIcon,
  Microscope: MicroscopeIcon,
  Palette: PaletteIcon,
  PenTool: PenToolIcon,
  Scale: ScaleIcon,
  Settings: SettingsIcon,
  Sparkles: SparklesIcon,
  TrendingUp: TrendingUpIcon,
  Wrench: WrenchIcon,
};

export function builtinIcon(name: string): LucideIcon {
  return ICONS[name] ?? LayoutTemplateIcon;
}
