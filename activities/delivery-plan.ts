import type { Orm } from '../src/db/orm';
import type { DeliveryPlan } from '../workflows/submission-contract';

export type DeliveryPlanActivities = {
  planDeliveries(submissionId: string): Promise<DeliveryPlan>;
};

/** The enabled, not deleted plugins of a submission's form, and whether it has e-mail addresses. */
export function createDeliveryPlanActivities(orm: Orm): DeliveryPlanActivities {
  return {
    async planDeliveries(submissionId) {
      const connection = orm.em.fork().getConnection();
      const [plugins, forms] = await Promise.all([
        connection.execute<{ id: string; plugin_type: string }[]>(
          `select p.id, p.plugin_type from plugins p join submissions s on s.form_id = p.form_id
            where s.id = ? and p.enabled and p.deleted_at is null order by p.id`,
          [submissionId],
        ),
        connection.execute<{ notify: boolean }[]>(
          `select cardinality(f.notification_email_addresses) > 0 as notify
             from forms f join submissions s on s.form_id = f.id where s.id = ?`,
          [submissionId],
        ),
      ]);
      return {
        targets: plugins.map((row) => ({ pluginId: String(row.id), pluginType: row.plugin_type })),
        notify: forms[0]?.notify ?? false,
      };
    },
  };
}
