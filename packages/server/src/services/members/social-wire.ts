/** Wire shapes of custom fields, badges, follows, reports and abouts (pure). */
import type { Badge, CustomFieldDefinition, MemberAbout, MemberReport, ReportedMember } from './model.js';
import type { WireAbout, WireBadge, WireCustomField, WireReport, WireReportedMember } from './social-wire-schemas.js';

export function toWireCustomField(field: CustomFieldDefinition): WireCustomField {
  return {
    id: field.fieldId,
    name: field.name,
    key: field.key,
    defaultPrivacy: field.visibility,
    fieldType: field.fieldType,
    socialType: field.socialType ?? 'UNKNOWN',
    fieldOrigin: field.origin,
    appliesTo: 'ALL_MEMBERS',
    section: field.section,
    hidden: field.hidden,
    createdDate: field.createdAt.toISOString(),
    updatedDate: field.updatedAt.toISOString(),
    revision: String(field.revision),
  };
}

export function toWireBadge(badge: Badge): WireBadge {
  const wire: WireBadge = {
    id: badge.badgeId,
    title: badge.title,
    slug: badge.slug,
    backgroundColor: badge.backgroundColor,
    textColor: badge.textColor,
    permissionsEnabled: badge.permissionsEnabled,
    createdDate: badge.createdAt.toISOString(),
    updatedDate: badge.updatedAt.toISOString(),
  };
  if (badge.description !== null) wire.description = badge.description;
  if (badge.icon !== null) wire.icon = badge.icon;
  return wire;
}

export function toWireReport(report: MemberReport): WireReport {
  const reason: WireReport['reason'] = { category: report.category };
  if (report.description !== null) reason.description = report.description;
  return {
    id: report.reportId,
    reportedMemberId: report.reportedMemberId,
    reportingMemberId: report.reportingMemberId,
    reason,
    createdDate: report.createdAt.toISOString(),
  };
}

export function toWireReportedMember(reported: ReportedMember): WireReportedMember {
  return {
    reportedMemberId: reported.reportedMemberId,
    // int64 on the wire: a decimal string.
    reportCount: String(reported.reportCount),
    reviewed: reported.reviewed,
    lastReportDate: reported.lastReportAt.toISOString(),
  };
}

export function toWireAbout(about: MemberAbout): WireAbout {
  return {
    id: about.aboutId,
    memberId: about.memberId,
    revision: String(about.revision),
    content: about.content,
    createdDate: about.createdAt.toISOString(),
    updatedDate: about.updatedAt.toISOString(),
  };
}
