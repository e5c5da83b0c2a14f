-- Temporal keeps its own schema in its own databases beside Formward's (auto-setup creates the tables).
CREATE DATABASE temporal;
CREATE DATABASE temporal_visibility;
