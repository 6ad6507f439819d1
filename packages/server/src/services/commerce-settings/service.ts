// A site's commerce settings: shipping regions and rules, pickup, tax, the inventory trigger. They
// are kept in the site's settings (the sites service owns that row and its cache), so this service
// has no store of its own.
import type { RequestContext } from '../../platform/caller.js';
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { recordAudit, settingsChange } from '../../platform/audit.js';
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import type { SitesService } from '../sites/service.js';
import { commerceSettingsOf, DEFAULT_COMMERCE_SETTINGS, readCommerceSettings, type CommerceSettings, type StoredCommerceSettings } from './settings.js';
import { DEFAULT_TIP_SETTINGS, type StoredTipSettings } from './tips.js';

export class CommerceSettingsService {
  constructor(private readonly sites: SitesService) {}

  /** The site's settings as pricing reads them (parsed once per site settings object). */
  async settings(ctx: SiteContext): Promise<CommerceSettings> {
    return commerceSettingsOf(await this.sites.activeSite(ctx));
  }

  /** The site's commerce settings as stored (decimal strings), over the defaults. */
  async stored(ctx: SiteContext): Promise<StoredCommerceSettings & { tips: Required<StoredTipSettings> }> {
    const site = await this.sites.activeSite(ctx);
    const commerce = (site.settings.commerce as StoredCommerceSettings | undefined) ?? {};
    return { ...DEFAULT_COMMERCE_SETTINGS, ...commerce, additionalFees: commerce.additionalFees ?? [], tips: { ...DEFAULT_TIP_SETTINGS, ...(commerce.tips ?? {}) } };
  }

  /** Replaces the given top-level commerce settings after checking all of them. */
  async update(ctx: RequestContext, patch: StoredCommerceSettings): Promise<StoredCommerceSettings & { tips: Required<StoredTipSettings> }> {
    const site = await this.sites.activeSite(ctx);
    const next = { ...((site.settings.commerce as StoredCommerceSettings | undefined) ?? {}), ...patch };
    const violations: FieldViolation[] = [];
    readCommerceSettings(next, site.settings.currency, violations);
    if (violations.length) throw ApiError.validation(violations);
    const before = { ...DEFAULT_COMMERCE_SETTINGS, ...((site.settings.commerce as StoredCommerceSettings | undefined) ?? {}) };
    await withTransaction(ctx, async (tx) => {
      await this.sites.updateSettings(tx, { commerce: next });
      const changed = settingsChange(before, { ...DEFAULT_COMMERCE_SETTINGS, ...next });
      if (changed) await recordAudit(tx, { action: 'commerce_settings.updated', objectType: 'commerce_settings', objectId: ctx.siteId, ...changed });
    });
    return this.stored(ctx);
  }
}

// What other services use of this one: they import service.ts only.
export { commerceSettingsOf, DEFAULT_COMMERCE_SETTINGS } from './settings.js';
export type { CommerceSettings, InventoryUpdateTrigger, StoredCommerceSettings, WeightUnit } from './settings.js';
export type { AdditionalFeeRule, Address, FeeKind, PickupOption, ShippingCondition, ShippingRegion, ShippingRule, ShippingRuleOperator, TaxRate, TaxSettings, TipSettings, TipSettingsType, TipSplit, TipType } from './model.js';
export { DEFAULT_TIP_SETTINGS, type StoredTipSettings } from './tips.js';
