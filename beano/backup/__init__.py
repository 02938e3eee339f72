"""Backups of one organization's records: ``export_organization`` writes them (every row of
every model of the project's apps that leads to the organization, the shared rows they point
at, the uploaded files, the audit chain), ``import_organization`` restores them into a database
that does not hold the organization and checks the audit chain. See docs/BACKUP.md."""
