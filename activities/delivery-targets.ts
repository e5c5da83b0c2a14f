import type { Orm } from '../src/db/orm';

export type DeliveryTarget = { pluginId: string; pluginType: string };

export type DeliveryTargetActivities = {
  listDeliveryTargets(submissionId: string): Promise<DeliveryTarget[]>;
};

/** The enabled, not deleted plugins of a submission's form: what the workflow fans out to. */
export function createDeliveryTargetActivities(orm: Orm): DeliveryTargetActivities {
  return {
    async listDeliveryTargets(submissionId) {
      const rows = await orm.em
        .fork()
        .getConnection()
        .execute<{ id: string; plugin_type: string }[]>(
          `select p.id, p.plugin_type from plugins p join submissions s on s.form_id = p.form_id
          where s.id = ? and p.enabled and p.deleted_at is null order by p.id`,
          [submissionId],
        );
      return rows.map((row) => ({ pluginId: String(row.id), pluginType: row.plugin_type }));
    },
  };
}
