DROP TABLE registrations;
DROP TABLE registration_settings;
